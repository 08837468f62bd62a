import { describe, expect, it } from 'vitest';
import { csrfMatches, Sessions } from './sessions.js';

describe('console sessions', () => {
  it('REV-3: a session has a random id and CSRF token, ends at its expiry or on sign-out', () => {
    let now = 1_000;
    const sessions = new Sessions(() => now, 60_000);
    const ana = sessions.open('ana');
    const bo = sessions.open('bo');
    expect(ana.id).toMatch(/^[\w-]{43}$/);
    expect(new Set([ana.id, ana.csrf, bo.id, bo.csrf]).size).toBe(4);
    expect(sessions.get(ana.id)?.reviewer).toBe('ana');
    expect(sessions.get(undefined)).toBeUndefined();
    expect(sessions.get('forged')).toBeUndefined();
    expect([csrfMatches(ana, ana.csrf), csrfMatches(ana, bo.csrf), csrfMatches(ana, '')]).toEqual([
      true,
      false,
      false,
    ]);
    expect(csrfMatches(ana, undefined)).toBe(false);
    sessions.close(bo.id);
    expect(sessions.get(bo.id)).toBeUndefined();
    now += 59_999;
    expect(sessions.get(ana.id)?.reviewer).toBe('ana');
    now += 1;
    expect(sessions.get(ana.id)).toBeUndefined();
  });
});
