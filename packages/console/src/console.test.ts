import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  approvalRequired,
  createInMemoryEventStore,
  tool,
  type EventStore,
} from '@agentlog/core';
import { scriptedModel, textResponse, toolCallResponse } from '@agentlog/core/testing';
import { loadReviewers, reviewersOf } from './reviewers.js';
import { consoleCsp } from './consolePage.js';
import { startConsole, type RunningConsole } from './startConsole.js';

const ANA = 'ana-token-0123456789abcdef';
const BO = 'bo-token-0123456789abcdef';
const reviewers = reviewersOf(
  [
    { name: 'ana', token: ANA },
    { name: 'bo', tokenSha256: createHash('sha256').update(BO).digest('hex') },
  ],
  'users.json',
);
const hostile = '\u001b[1A\u202e<script>alert(1)</script>';

/** An in-memory store with stream `deploy-api`, whose `deploy` call d1 waits for approval. */
async function waitingStore(service = 'api', streamId = 'deploy-api') {
  const store = createInMemoryEventStore();
  const deploy = tool({
    name: 'deploy',
    description: 'Deploys a service.',
    parameters: z.object({ service: z.string() }),
    execute: ({ service: name }) => `deployed ${name}`,
  });
  const agent = await Agent.builder()
    .llm(
      scriptedModel([
        toolCallResponse([{ name: 'deploy', args: { service }, id: 'd1' }]),
        textResponse('done'),
      ]),
    )
    .tools([approvalRequired(deploy)])
    .store(store)
    .streamId(streamId)
    .logger({ warn: () => undefined })
    .build();
  await agent.query('Deploy');
  return { store, agent, streamId };
}

const running: RunningConsole[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((console) => console.close()));
});

async function consoleOn(store: EventStore) {
  const started = await startConsole({ store, reviewers, port: 0 });
  running.push(started);
  const at = (path: string) => `${started.url}${path}`;
  return { ...started, at };
}

/** Signs in with `token`; returns the cookie header and the CSRF token of the inbox's forms. */
async function signIn(at: (path: string) => string, token = ANA) {
  const response = await fetch(at('/login'), {
    method: 'POST',
    body: new URLSearchParams({ token }),
    redirect: 'manual',
  });
  expect(response.status).toBe(303);
  const setCookie = response.headers.get('set-cookie') ?? '';
  const cookie = setCookie.split(';')[0] ?? '';
  const inbox = await (await fetch(at('/'), { headers: { cookie } })).text();
  const csrf = /name="csrf" value="([^"]+)"/.exec(inbox)?.[1] ?? '';
  return { cookie, csrf, setCookie };
}

const postForm = (url: string, cookie: string, fields: Record<string, string>) =>
  fetch(url, {
    method: 'POST',
    headers: { cookie },
    body: new URLSearchParams(fields),
    redirect: 'manual',
  });

const decisions = async (store: EventStore, streamId: string) =>
  (await store.readStream(streamId)).filter((event) => event.type === 'FeedbackReceived');

describe('agentlog serve: the reviewer console', () => {
  it('REV-3: no page and no API route answers without a reviewer', async () => {
    const { store, streamId } = await waitingStore();
    const { at } = await consoleOn(store);
    for (const path of [
      '/',
      '/runs',
      `/runs/${streamId}`,
      `/runs/${streamId}/calls/d1`,
      `/runs/${streamId}/audit`,
    ]) {
      const response = await fetch(at(path), { redirect: 'manual' });
      expect([path, response.status, response.headers.get('location')]).toEqual([
        path,
        303,
        '/login',
      ]);
    }
    for (const path of ['/api/pending', '/api/runs', `/api/runs/${streamId}/events`]) {
      const response = await fetch(at(path));
      expect(response.status).toBe(401);
      expect(await response.json()).toHaveProperty('error');
    }
    const wrongBearer = await fetch(at('/api/pending'), {
      headers: { authorization: 'Bearer not-a-reviewer-token' },
    });
    expect(wrongBearer.status).toBe(401);
    const post = await fetch(at('/api/decisions'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ streamId, toolCallId: 'd1', decision: 'approve' }),
    });
    expect(post.status).toBe(401);
    const form = await postForm(at(`/runs/${streamId}/calls/d1`), '', { decision: 'approve' });
    expect(form.status).toBe(303);
    expect(await decisions(store, streamId)).toEqual([]);
  });

  it('REV-3: sign-in sets an HttpOnly SameSite=Strict session cookie; a wrong token gets none; sign-out ends it', async () => {
    const { store } = await waitingStore();
    const { at } = await consoleOn(store);
    const wrong = await fetch(at('/login'), {
      method: 'POST',
      body: new URLSearchParams({ token: 'nope' }),
      redirect: 'manual',
    });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('set-cookie')).toBeNull();
    const { cookie, csrf, setCookie } = await signIn(at);
    expect(setCookie).toMatch(/^agentlog_session=[\w-]{40,};/);
    expect(setCookie).toMatch(/; HttpOnly/);
    expect(setCookie).toMatch(/; SameSite=Strict/);
    expect(setCookie).toMatch(/; Path=\//);
    expect(setCookie).not.toContain(ANA);
    const inbox = await fetch(at('/'), { headers: { cookie } });
    expect(inbox.status).toBe(200);
    expect(await inbox.text()).toContain('signed in as <strong>ana</strong>');
    const out = await postForm(at('/logout'), cookie, { csrf });
    expect(out.status).toBe(303);
    expect((await fetch(at('/'), { headers: { cookie }, redirect: 'manual' })).status).toBe(303);
  });

  it('REV-3: a form POST without its CSRF token is refused with 403 and writes nothing', async () => {
    const { store, streamId } = await waitingStore();
    const { at } = await consoleOn(store);
    const { cookie } = await signIn(at);
    for (const fields of [{ decision: 'approve' }, { decision: 'approve', csrf: 'forged' }]) {
      const response = await postForm(at(`/runs/${streamId}/calls/d1`), cookie, fields);
      expect(response.status).toBe(403);
    }
    const api = await fetch(at('/api/decisions'), {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify({ streamId, toolCallId: 'd1', decision: 'approve' }),
    });
    expect(api.status).toBe(403);
    const crossOrigin = await fetch(at('/login'), {
      method: 'POST',
      headers: { origin: 'https://evil.example' },
      body: new URLSearchParams({ token: ANA }),
      redirect: 'manual',
    });
    expect(crossOrigin.status).toBe(403);
    const fetchMetadata = await fetch(at('/login'), {
      method: 'POST',
      headers: { 'sec-fetch-site': 'cross-site', origin: 'null' },
      body: new URLSearchParams({ token: ANA }),
      redirect: 'manual',
    });
    expect(fetchMetadata.status).toBe(403);
    expect(await decisions(store, streamId)).toEqual([]);
  });

  it('REV-3: `by` is the signed-in reviewer even when the form or the API body says by=mallory', async () => {
    const first = await waitingStore();
    const { at } = await consoleOn(first.store);
    const { cookie, csrf } = await signIn(at);
    const page = await (
      await fetch(at('/runs/deploy-api/calls/d1'), { headers: { cookie } })
    ).text();
    const revision = /name="revision" value="(\d+)"/.exec(page)?.[1] ?? '';
    const response = await postForm(at('/runs/deploy-api/calls/d1'), cookie, {
      csrf,
      revision,
      decision: 'refuse',
      note: 'not today',
      reason: 'freeze week',
      by: 'mallory',
    });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('Refused d1 in deploy-api as ana');
    expect((await decisions(first.store, 'deploy-api')).map((event) => event.data)).toEqual([
      {
        toolCallId: 'd1',
        feedback: { kind: 'refused', reason: 'freeze week' },
        by: 'ana',
        note: 'not today',
      },
    ]);

    const second = await waitingStore();
    const api = await consoleOn(second.store);
    const created = await fetch(api.at('/api/decisions'), {
      method: 'POST',
      headers: { authorization: `Bearer ${BO}`, 'content-type': 'application/json' },
      body: JSON.stringify({
        streamId: 'deploy-api',
        toolCallId: 'd1',
        decision: 'approve',
        payload: { window: 'now' },
        by: 'mallory',
      }),
    });
    expect(created.status).toBe(201);
    const body = (await created.json()) as { event: { type: string; data: unknown } };
    expect(body.event.type).toBe('FeedbackReceived');
    expect(body.event.data).toEqual({
      toolCallId: 'd1',
      feedback: { kind: 'approved', payload: { window: 'now' } },
      by: 'bo',
    });
  });

  it('HITL-15 REV-3: the decide form’s box and the API’s scope approve the tool for the rest of the run; a refusal for the run is refused and writes nothing', async () => {
    const first = await waitingStore();
    const { at } = await consoleOn(first.store);
    const { cookie, csrf } = await signIn(at);
    const page = await (
      await fetch(at('/runs/deploy-api/calls/d1'), { headers: { cookie } })
    ).text();
    expect(page).toContain('<input type="checkbox" id="approve-scope" name="scope" value="run">');
    const form = await postForm(at('/runs/deploy-api/calls/d1'), cookie, {
      csrf,
      decision: 'approve',
      scope: 'run',
    });
    expect(form.status).toBe(200);
    expect((await decisions(first.store, 'deploy-api')).map((event) => event.data)).toEqual([
      { toolCallId: 'd1', feedback: { kind: 'approved' }, by: 'ana', scope: 'run' },
    ]);

    const second = await waitingStore();
    const api = await consoleOn(second.store);
    const post = (body: Record<string, unknown>) =>
      fetch(api.at('/api/decisions'), {
        method: 'POST',
        headers: { authorization: `Bearer ${BO}`, 'content-type': 'application/json' },
        body: JSON.stringify({ streamId: 'deploy-api', toolCallId: 'd1', ...body }),
      });
    const refusedForRun = await post({ decision: 'refuse', scope: 'run' });
    expect(refusedForRun.status).toBe(400);
    expect(await refusedForRun.json()).toEqual({
      error: 'only an approval can cover the rest of the run; a refusal answers its one call',
    });
    const unknownScope = await post({ decision: 'approve', scope: 'forever' });
    expect(unknownScope.status).toBe(400);
    expect(await decisions(second.store, 'deploy-api')).toEqual([]);
    const created = await post({ decision: 'approve', scope: 'run' });
    expect(created.status).toBe(201);
    expect(((await created.json()) as { event: { data: unknown } }).event.data).toEqual({
      toolCallId: 'd1',
      feedback: { kind: 'approved' },
      by: 'bo',
      scope: 'run',
    });
  });

  it('REV-3: every response carries the strict CSP and no page holds inline script or style', async () => {
    const { store, streamId } = await waitingStore();
    const { at } = await consoleOn(store);
    const login = await fetch(at('/login'));
    const { cookie } = await signIn(at);
    const pages = [login];
    for (const path of [
      '/',
      '/runs',
      '/runs?needs=work',
      `/runs/${streamId}`,
      `/runs/${streamId}/calls/d1`,
    ])
      pages.push(await fetch(at(path), { headers: { cookie } }));
    for (const page of pages) {
      expect(page.status).toBe(200);
      expect(page.headers.get('content-security-policy')).toBe(consoleCsp);
      expect(page.headers.get('x-content-type-options')).toBe('nosniff');
      expect(page.headers.get('referrer-policy')).toBe('no-referrer');
      const html = await page.text();
      // The only script is the same-origin file; no inline script, handler or style.
      expect(html.match(/<script\b[^>]*>/g) ?? []).toEqual(['<script src="/console.js" defer>']);
      expect(html).not.toMatch(/<style|\sstyle=|\son[a-z]+=/i);
    }
    expect(consoleCsp).toContain("default-src 'none'");
    expect(consoleCsp).toContain("frame-ancestors 'none'");
    const audit = await fetch(at(`/runs/${streamId}/audit`), { headers: { cookie } });
    expect(audit.headers.get('content-security-policy')).toMatch(
      /^default-src 'none'; style-src 'sha256-[^']+'; .*frame-ancestors 'none'$/,
    );
    expect(await audit.text()).toContain('Stream deploy-api');
  });

  it('REV-1: a hostile argument (ESC[1A, U+202E, <script>) is shown escaped and visible', async () => {
    const { store, streamId } = await waitingStore(hostile);
    const { at } = await consoleOn(store);
    const { cookie } = await signIn(at);
    for (const path of ['/', `/runs/${streamId}/calls/d1`, `/runs/${streamId}`]) {
      const html = await (await fetch(at(path), { headers: { cookie } })).text();
      expect(html).toContain('\\u001b[1A');
      expect(html).toContain('\\u202e');
      expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
      expect(html).not.toContain('\u001b');
      expect(html).not.toContain('\u202e');
      expect(html).not.toContain('<script>alert');
    }
  });

  it('REV-4: a decision on a call decided or answered meanwhile is refused with a clear message and writes nothing', async () => {
    const { store, agent, streamId } = await waitingStore();
    const { at } = await consoleOn(store);
    const { cookie, csrf } = await signIn(at);
    const page = await (
      await fetch(at(`/runs/${streamId}/calls/d1`), { headers: { cookie } })
    ).text();
    const revision = /name="revision" value="(\d+)"/.exec(page)?.[1] ?? '';
    // Meanwhile bo approves it through the API.
    const bo = await fetch(at('/api/decisions'), {
      method: 'POST',
      headers: { authorization: `Bearer ${BO}`, 'content-type': 'application/json' },
      body: JSON.stringify({ streamId, toolCallId: 'd1', decision: 'approve' }),
    });
    expect(bo.status).toBe(201);
    const before = await store.readStream(streamId);
    const late = await postForm(at(`/runs/${streamId}/calls/d1`), cookie, {
      csrf,
      revision,
      decision: 'refuse',
    });
    expect(late.status).toBe(409);
    const text = await late.text();
    expect(text).toContain(
      'Nothing was recorded: d1 no longer waits for a decision: it was already approved by bo.',
    );
    expect(text).toContain(
      `The page showed revision ${revision}; the stream is at revision ${Number(revision) + 1}.`,
    );
    const again = await fetch(at('/api/decisions'), {
      method: 'POST',
      headers: { authorization: `Bearer ${ANA}`, 'content-type': 'application/json' },
      body: JSON.stringify({ streamId, toolCallId: 'd1', decision: 'approve' }),
    });
    expect(again.status).toBe(409);
    expect(((await again.json()) as { error: string }).error).toMatch(/already approved by bo/);
    expect(await store.readStream(streamId)).toEqual(before);

    // Then a run consumes bo's approval and answers the call: the message says so.
    await agent.run();
    const answered = await fetch(at('/api/decisions'), {
      method: 'POST',
      headers: { authorization: `Bearer ${ANA}`, 'content-type': 'application/json' },
      body: JSON.stringify({ streamId, toolCallId: 'd1', decision: 'refuse' }),
    });
    expect(answered.status).toBe(409);
    expect(((await answered.json()) as { error: string }).error).toMatch(
      /d1 no longer waits for a decision: it was answered meanwhile \(completed\)/,
    );
  });

  it('REV-4: two reviewers deciding the same call at once: one decision is recorded, the other is 409', async () => {
    const { store, streamId } = await waitingStore();
    const { at } = await consoleOn(store);
    const decide = (token: string, decision: string) =>
      fetch(at('/api/decisions'), {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ streamId, toolCallId: 'd1', decision }),
      });
    const answers = await Promise.all([decide(ANA, 'approve'), decide(BO, 'refuse')]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
    const recorded = await decisions(store, streamId);
    expect(recorded).toHaveLength(1);
    const loser = answers.find((answer) => answer.status === 409);
    const winner = (recorded[0]?.data as { by: string; feedback: { kind: string } }) ?? {};
    expect(((await loser?.json()) as { error: string }).error).toContain(
      `it was already ${winner.feedback.kind} by ${winner.by}`,
    );
  });

  it('API: /api/pending lists the waiting calls as JSON; bad decisions are 400 and write nothing', async () => {
    const { store, streamId } = await waitingStore();
    const { at } = await consoleOn(store);
    const auth = { authorization: `Bearer ${ANA}` };
    const pending = await fetch(at('/api/pending'), { headers: auth });
    expect(pending.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await pending.json()).toEqual({
      pending: [
        {
          streamId,
          toolCallId: 'd1',
          tool: 'deploy',
          args: '{"service":"api"}',
          since: expect.any(String) as unknown,
        },
      ],
      unreadable: [],
    });
    for (const body of [
      '[]',
      'not json',
      JSON.stringify({ streamId, toolCallId: 'd1', decision: 'maybe' }),
      JSON.stringify({ streamId, toolCallId: 'd1', decision: 'approve', reason: 'no' }),
      JSON.stringify({ streamId, decision: 'approve' }),
    ]) {
      const response = await fetch(at('/api/decisions'), {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body,
      });
      expect([body, response.status]).toEqual([body, 400]);
    }
    const unknown = await fetch(at('/api/decisions'), {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ streamId, toolCallId: 'nope', decision: 'approve' }),
    });
    expect(unknown.status).toBe(404);
    expect(await decisions(store, streamId)).toEqual([]);
    const stop = await fetch(at(`/api/runs/${streamId}/stop`), {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ reason: 'enough' }),
    });
    // The run stopped to wait for the decision: nothing is in progress to stop.
    expect(stop.status).toBe(409);
  });

  it('SSE: /api/runs/:id/events sends the stream\u2019s events (catch-up) as JSON', async () => {
    const { store, streamId } = await waitingStore();
    const { at } = await consoleOn(store);
    const stored = await store.readStream(streamId);
    const abort = new AbortController();
    const response = await fetch(at(`/api/runs/${streamId}/events`), {
      headers: { authorization: `Bearer ${ANA}` },
      signal: abort.signal,
    });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    while ((text.match(/^data: /gm) ?? []).length < stored.length) {
      const { value, done } = await reader.read();
      if (done) break;
      text += value;
    }
    abort.abort();
    const events = [...text.matchAll(/^data: (.*)$/gm)].map(
      (match) => JSON.parse(match[1] ?? '') as { type: string; metadata: { revision: number } },
    );
    expect(events.map((event) => [event.metadata.revision, event.type])).toEqual(
      stored.map((event) => [event.metadata.revision, event.type]),
    );
  });
});

describe('agentlog serve: runs and stop', () => {
  it('HITL-12 REV-3: the stop form on a live run records a stop request by the signed-in reviewer', async () => {
    const store = createInMemoryEventStore();
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    let started = () => {};
    const working = new Promise<void>((resolve) => (started = resolve));
    const slow = tool({
      name: 'slow',
      description: 'Takes its time.',
      parameters: z.object({}),
      execute: async () => {
        started();
        await gate;
        return 'done';
      },
    });
    const agent = await Agent.builder()
      .llm(
        scriptedModel([
          toolCallResponse([{ name: 'slow', args: {}, id: 's1' }]),
          textResponse('finished'),
        ]),
      )
      .tools([slow])
      .store(store)
      .streamId('live-run')
      .logger({ warn: () => undefined })
      .build();
    const run = agent.query('Go');
    await working;
    const { at } = await consoleOn(store);
    const { cookie } = await signIn(at);
    const page = await (await fetch(at('/runs/live-run'), { headers: { cookie } })).text();
    expect(page).toContain('<form method="post" action="/runs/live-run/stop"');
    const csrf = /name="csrf" value="([^"]+)"/.exec(page)?.[1] ?? '';
    const stopped = await postForm(at('/runs/live-run/stop'), cookie, {
      csrf,
      reason: 'wrong branch',
      by: 'mallory',
    });
    expect(stopped.status).toBe(200);
    const requested = (await store.readStream('live-run')).filter(
      (event) => event.type === 'StopRequested',
    );
    expect(requested.map((event) => event.data)).toEqual([{ reason: 'wrong branch', by: 'ana' }]);
    release();
    await run;
    expect(agent.stopReason()).toEqual({ kind: 'other', text: 'wrong branch' });
  });

  it('REV-1: /runs filters by status and need; odd or invalid stream ids in a URL are handled, not errors', async () => {
    const { store } = await waitingStore('api', 'deploy api?x#1%');
    const { at } = await consoleOn(store);
    const { cookie, csrf } = await signIn(at);
    const get = async (path: string) => {
      const response = await fetch(at(path), { headers: { cookie } });
      return { status: response.status, html: await response.text() };
    };
    const encoded = encodeURIComponent('deploy api?x#1%');
    for (const path of ['/runs', '/runs?needs=work', '/runs?status=stopped'])
      expect((await get(path)).html).toContain(`href="/runs/${encoded}"`);
    expect((await get('/runs?status=running')).html).not.toContain(encoded);
    expect((await get(`/runs/${encoded}`)).status).toBe(200);
    expect((await get(`/runs/${encoded}/calls/d1`)).html).toContain('value="approve"');
    const decided = await postForm(at(`/runs/${encoded}/calls/d1`), cookie, {
      csrf,
      decision: 'approve',
    });
    expect(decided.status).toBe(200);
    const needing = (await get('/runs?needs=work')).html; // decided, not resumed
    expect(needing).toContain(encoded);
    // The in-memory store keeps a work index: the page shows its entry, the API too.
    expect(needing).toContain('<th>work</th>');
    const runs = (await (
      await fetch(at('/api/runs'), { headers: { authorization: `Bearer ${ANA}` } })
    ).json()) as { runs: { streamId: string; needsWork: boolean; work: { status: string } }[] };
    expect(runs.runs).toEqual([
      expect.objectContaining({ streamId: 'deploy api?x#1%', needsWork: true }),
    ]);
    expect(needing).toContain(`<td class="work">${runs.runs[0]?.work.status ?? '?'}</td>`);
    for (const path of [
      '/runs/%E2%80%AEx',
      '/runs/nope',
      '/runs/a%5Cb/calls/d1',
      '/runs/nope/audit',
    ])
      expect([path, (await get(path)).status]).toEqual([path, 404]);
  });
});

describe('agentlog serve: the users file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'agentlog-serve-users-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };

  it('REV-3: refuses a missing, invalid or empty users file with a clear error that prints no token', async () => {
    const secret = 'tiny-s3cr3t';
    const cases: [string, RegExp][] = [
      [join(dir, 'absent.json'), /^no users file at .*absent\.json$/],
      [file('bad.json', '{'), /is not valid JSON$/],
      [file('object.json', '{"name":"ana"}'), /must hold a JSON array/],
      [file('empty.json', '[]'), /names no reviewer$/],
      [file('noname.json', '[{"token":"0123456789abcdef0"}]'), /entry 1 has no name$/],
      [file('notoken.json', '[{"name":"ana"}]'), /needs exactly one of token and tokenSha256$/],
      [file('short.json', `[{"name":"ana","token":"${secret}"}]`), /16 characters or more$/],
      [
        file('twice.json', `[{"name":"ana","token":"${ANA}"},{"name":"bo","token":"${ANA}"}]`),
        /same token as another reviewer$/,
      ],
    ];
    for (const [path, message] of cases) {
      const error = await loadReviewers(path).then(
        () => undefined,
        (failure: unknown) => failure as Error,
      );
      expect(error?.message).toMatch(message);
      expect(error?.message).not.toContain(secret);
      expect(error?.message).not.toContain(ANA);
    }
    const ok = await loadReviewers(file('ok.json', JSON.stringify([{ name: 'ana', token: ANA }])));
    expect([ok.size, ok.nameOf(ANA), ok.nameOf(BO), ok.nameOf('')]).toEqual([
      1,
      'ana',
      undefined,
      undefined,
    ]);
  });
});
