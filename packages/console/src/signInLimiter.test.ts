import { afterEach, describe, expect, it } from 'vitest';
import { createInMemoryEventStore } from '@agentlog/core';
import { reviewersOf } from './reviewers.js';
import { SignInLimiter } from './signInLimiter.js';
import { startConsole, type RunningConsole } from './startConsole.js';

const TOKEN = 'ana-token-0123456789abcdef';

const running: RunningConsole[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((console) => console.close()));
});

describe('sign-in rate limit', () => {
  it('REV-3: 10 wrong tokens within a minute block the client until its oldest failure is a minute old; a right token clears the count', () => {
    let now = 0;
    const limiter = new SignInLimiter(() => now, 10, 60_000);
    for (let n = 0; n < 9; n += 1) {
      limiter.fail('10.0.0.1');
      now += 1_000;
    }
    expect(limiter.waitOf('10.0.0.1')).toBe(0);
    limiter.fail('10.0.0.1'); // the 10th, at 9 s; the first was at 0 s
    expect(limiter.waitOf('10.0.0.1')).toBe(51_000);
    expect(limiter.waitOf('10.0.0.2')).toBe(0);
    now = 60_000; // the first failure leaves the window: one more try is allowed
    expect(limiter.waitOf('10.0.0.1')).toBe(0);
    limiter.fail('10.0.0.1');
    expect(limiter.waitOf('10.0.0.1')).toBe(1_000);
    now = 200_000; // a block never outlives the window
    expect(limiter.waitOf('10.0.0.1')).toBe(0);
    for (let n = 0; n < 9; n += 1) limiter.fail('10.0.0.1');
    limiter.succeed('10.0.0.1');
    limiter.fail('10.0.0.1');
    expect(limiter.waitOf('10.0.0.1')).toBe(0);
  });

  it('REV-3: the 11th wrong token in a minute is 429 with Retry-After, even a right one, for the form and Bearer; a minute later the right token signs in', async () => {
    let now = Date.parse('2026-01-01T00:00:00Z');
    const started = await startConsole({
      store: createInMemoryEventStore(),
      reviewers: reviewersOf([{ name: 'ana', token: TOKEN }], 'users.json'),
      port: 0,
      now: () => now,
    });
    running.push(started);
    const login = (token: string) =>
      fetch(`${started.url}/login`, {
        method: 'POST',
        body: new URLSearchParams({ token }),
        redirect: 'manual',
      });
    for (let n = 0; n < 5; n += 1) expect((await login(`wrong-${n}`)).status).toBe(401);
    for (let n = 0; n < 5; n += 1) {
      const bearer = await fetch(`${started.url}/api/pending`, {
        headers: { authorization: `Bearer wrong-${n}` },
      });
      expect(bearer.status).toBe(401);
    }
    now += 30_000;
    const blocked = await login(TOKEN);
    expect(blocked.status).toBe(429);
    expect(blocked.headers.get('retry-after')).toBe('30');
    expect(blocked.headers.get('set-cookie')).toBeNull();
    expect(await blocked.text()).toContain(
      'Too many wrong tokens from this address: try again in 30 s.',
    );
    const api = await fetch(`${started.url}/api/pending`, {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(api.status).toBe(429);
    expect(api.headers.get('retry-after')).toBe('30');
    expect(((await api.json()) as { error: string }).error).toMatch(/too many wrong tokens/);
    now += 30_000;
    const allowed = await login(TOKEN);
    expect(allowed.status).toBe(303);
    expect(allowed.headers.get('set-cookie')).toMatch(/^agentlog_session=/);
  });
});
