import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  approvalRequired,
  REFUSAL_TEXT,
  tool,
  type EventStore,
  type StreamEvent,
} from '@agentlog/core';
import { scriptedModel, textResponse, toolCallResponse } from '@agentlog/core/testing';
import { createSqliteEventStore } from '@agentlog/store';
import { runCliIn } from './test/runCliIn.js';

const dir = mkdtempSync(join(tmpdir(), 'agentlog-cli-decide-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const newDb = () => join(dir, `decide-${(files += 1)}.db`);

const fixture = (name: string) => join(import.meta.dirname, '../../../fixtures/sessions', name);

async function cli(args: string[], env: Record<string, string> = {}) {
  return runCliIn(args, { cwd: dir, env: { NO_COLOR: '1', ...env } });
}

/** An agent whose `deploy` tool needs approval; `runs` collects the services it deployed. */
function deployAgent(store: EventStore, streamId: string, runs: string[]) {
  const deploy = tool({
    name: 'deploy',
    description: 'Deploys a service.',
    parameters: z.object({ service: z.string() }),
    execute: ({ service }) => {
      runs.push(service);
      return `deployed ${service}`;
    },
  });
  return Agent.builder()
    .llm(
      scriptedModel([
        toolCallResponse([{ name: 'deploy', args: { service: 'api' }, id: 'd1' }]),
        textResponse('api is live'),
      ]),
    )
    .tools([approvalRequired(deploy)])
    .store(store)
    .streamId(streamId)
    .logger({ warn: () => undefined })
    .build();
}

/** A SQLite file with one stream whose `deploy` call d1 waits for approval. */
async function waitingStream(streamId = 'deploy-api') {
  const db = newDb();
  const store = createSqliteEventStore({ path: db });
  const runs: string[] = [];
  const agent = await deployAgent(store, streamId, runs);
  await agent.query('Deploy the api');
  expect(agent.pendingFeedback().map((pending) => pending.toolCall.id)).toEqual(['d1']);
  return { db, store, agent, runs, streamId };
}

const ofType = (events: StreamEvent[], type: string) =>
  events.filter((event) => event.type === type);

describe('agentlog approve and refuse', () => {
  it('approve from the CLI against SQLite, then agent.run() in this process runs the tool', async () => {
    const { db, store, agent, runs, streamId } = await waitingStream();
    const pending = await cli(['pending', '--store', db]);
    expect(pending).toMatchObject({
      code: 0,
      stdout: 'deploy-api  d1  deploy  {"service":"api"}\n',
    });
    const approved = await cli([
      'approve',
      streamId,
      'd1',
      '--by',
      'ana',
      '--note',
      'release checklist done',
      '--store',
      db,
    ]);
    expect(approved).toMatchObject({ code: 0, stderr: '' });
    expect(approved.stdout).toMatch(
      /^approved deploy \(d1\) in deploy-api by ana at revision \d+\n$/,
    );
    await agent.run();
    expect(runs).toEqual(['api']);
    const events = await store.readStream(streamId);
    expect(ofType(events, 'FeedbackReceived')[0]?.data).toEqual({
      toolCallId: 'd1',
      feedback: { kind: 'approved' },
      by: 'ana',
      note: 'release checklist done',
    });
    expect(agent.stopReason()).toEqual({ kind: 'noNewMessages' });
    store.close();
  });

  it('refuse records a refusal with its payload; the resumed call answers with the refusal text', async () => {
    const { db, store, agent, runs, streamId } = await waitingStream();
    const refused = await cli([
      'refuse',
      streamId,
      'd1',
      '--payload',
      '{"reason":"freeze"}',
      '--by',
      'bo',
      '--store',
      db,
    ]);
    expect(refused.code).toBe(0);
    await agent.run();
    expect(runs).toEqual([]);
    const events = await store.readStream(streamId);
    expect(ofType(events, 'FeedbackReceived')[0]?.data).toEqual({
      toolCallId: 'd1',
      feedback: { kind: 'refused', payload: { reason: 'freeze' } },
      by: 'bo',
    });
    expect(ofType(events, 'ToolCallCompleted')[0]?.data).toMatchObject({
      output: { kind: 'text', text: REFUSAL_TEXT },
    });
    store.close();
  });

  it('HITL-14 refuse --reason gives the model the reason after the refusal text; --note stays out of what it reads', async () => {
    const { db, store, agent, runs, streamId } = await waitingStream();
    const refused = await cli([
      'refuse',
      streamId,
      'd1',
      '--reason',
      'the release freeze runs until Monday',
      '--note',
      'ticket OPS-12',
      '--by',
      'bo',
      '--store',
      db,
    ]);
    expect(refused.code, refused.stderr).toBe(0);
    await agent.run();
    expect(runs).toEqual([]);
    const events = await store.readStream(streamId);
    expect(ofType(events, 'FeedbackReceived')[0]?.data).toEqual({
      toolCallId: 'd1',
      feedback: { kind: 'refused', reason: 'the release freeze runs until Monday' },
      by: 'bo',
      note: 'ticket OPS-12',
    });
    expect(ofType(events, 'ToolCallCompleted')[0]?.data).toMatchObject({
      output: { kind: 'text', text: `${REFUSAL_TEXT}: the release freeze runs until Monday` },
    });
    store.close();
  });

  it('HITL-15 approve --for-run records the scope, and the resumed run runs the tool’s later calls without asking', async () => {
    const db = newDb();
    const store = createSqliteEventStore({ path: db });
    const runs: string[] = [];
    const deploy = tool({
      name: 'deploy',
      description: 'Deploys a service.',
      parameters: z.object({ service: z.string() }),
      execute: ({ service }) => {
        runs.push(service);
        return `deployed ${service}`;
      },
    });
    const agent = await Agent.builder()
      .llm(
        scriptedModel([
          toolCallResponse([{ name: 'deploy', args: { service: 'api' }, id: 'd1' }]),
          toolCallResponse([{ name: 'deploy', args: { service: 'web' }, id: 'd2' }]),
          textResponse('both are live'),
        ]),
      )
      .tools([approvalRequired(deploy)])
      .store(store)
      .streamId('deploy-all')
      .logger({ warn: () => undefined })
      .build();
    await agent.query('Deploy everything');
    const approved = await cli([
      'approve',
      'deploy-all',
      'd1',
      '--for-run',
      '--by',
      'ana',
      '--store',
      db,
    ]);
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.stdout).toMatch(
      /^approved deploy \(d1\) and its later calls for the rest of the run in deploy-all by ana at revision \d+\n$/,
    );
    await agent.run();
    expect(runs).toEqual(['api', 'web']);
    const events = await store.readStream('deploy-all');
    expect(ofType(events, 'FeedbackReceived')[0]?.data).toEqual({
      toolCallId: 'd1',
      feedback: { kind: 'approved' },
      by: 'ana',
      scope: 'run',
    });
    const refusedForRun = await cli(['refuse', 'deploy-all', 'd2', '--for-run', '--by', 'ana']);
    expect(refusedForRun.code).toBe(2);
    expect(refusedForRun.stderr).toMatch(/unknown option '--for-run'/);
    store.close();
  });

  it('invalid JSON payload, unknown stream or call, a call that is not open: one line, exit 2, nothing written', async () => {
    const { db, store, streamId } = await waitingStream();
    const before = (await store.readStream(streamId)).length;
    const cases: [string[], RegExp][] = [
      [
        ['approve', streamId, 'd1', '--by', 'ana', '--payload', '{nope'],
        /--payload is not valid JSON/,
      ],
      [['approve', 'no-such-stream', 'd1', '--by', 'ana'], /no stream no-such-stream in /],
      [['refuse', streamId, 'x9', '--by', 'ana'], /stream deploy-api has no tool call x9/],
      [['approve', streamId], /missing <toolCallId>/],
      [['approve', streamId, 'd1', '--colour'], /unknown option '--colour'/],
    ];
    for (const [args, message] of cases) {
      const result = await cli([...args, '--store', db]);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(message);
      expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    }
    expect(await store.readStream(streamId)).toHaveLength(before);
    // Once approved and run, d1 is answered: a second decision is refused and writes nothing.
    expect((await cli(['approve', streamId, 'd1', '--by', 'ana', '--store', db])).code).toBe(0);
    const agent = await deployAgent(store, streamId, []);
    await agent.run();
    const answered = (await store.readStream(streamId)).length;
    const late = await cli(['refuse', streamId, 'd1', '--by', 'bo', '--store', db]);
    expect(late.code).toBe(2);
    expect(late.stderr).toMatch(/the call is not open, it was already answered/);
    expect(await store.readStream(streamId)).toHaveLength(answered);
    store.close();
  });

  it('HITL-10 approve and refuse need an author: without --by or AGENTLOG_USER nothing is written', async () => {
    const { db, store, streamId } = await waitingStream();
    const before = (await store.readStream(streamId)).length;
    for (const kind of ['approve', 'refuse']) {
      for (const env of [{}, { AGENTLOG_USER: '' }]) {
        const anonymous = await cli([kind, streamId, 'd1', '--store', db], env);
        expect(anonymous).toEqual({
          code: 2,
          stdout: '',
          stderr: `agentlog ${kind}: ${kind} needs --by <name> or AGENTLOG_USER: decisions record who made them\n`,
        });
      }
    }
    expect(await store.readStream(streamId)).toHaveLength(before);
    store.close();
  });

  it('HITL-10 without --by the author is AGENTLOG_USER; --by wins over it', async () => {
    const fromEnv = await waitingStream();
    const byEnv = await cli(
      ['refuse', fromEnv.streamId, 'd1', '--note', 'freeze', '--store', fromEnv.db],
      {
        AGENTLOG_USER: 'carla',
      },
    );
    expect(byEnv).toMatchObject({ code: 0, stderr: '' });
    expect(byEnv.stdout).toMatch(
      /^refused deploy \(d1\) in deploy-api by carla at revision \d+\n$/,
    );
    const [received] = ofType(await fromEnv.store.readStream(fromEnv.streamId), 'FeedbackReceived');
    expect(received?.data).toEqual({
      toolCallId: 'd1',
      feedback: { kind: 'refused' },
      by: 'carla',
      note: 'freeze',
    });
    fromEnv.store.close();
    const both = await waitingStream();
    await cli(['approve', both.streamId, 'd1', '--by', 'ana', '--store', both.db], {
      AGENTLOG_USER: 'carla',
    });
    const [approved] = ofType(await both.store.readStream(both.streamId), 'FeedbackReceived');
    expect(approved?.data).toMatchObject({ by: 'ana' });
    both.store.close();
  });

  it('a JSONL store is read-only, and a missing SQLite file is reported, not created', async () => {
    const jsonl = await cli([
      'approve',
      'hitl-5',
      'g1',
      '--by',
      'ana',
      '--store',
      fixture('HITL-5-shadowed-approval.jsonl'),
    ]);
    expect(jsonl.code).toBe(2);
    expect(jsonl.stderr).toMatch(/JSONL file, which agentlog only reads/);
    const missing = join(dir, 'missing.db');
    const result = await cli(['approve', 's', 'c', '--by', 'ana', '--store', missing]);
    expect(result).toMatchObject({
      code: 2,
      stderr: `agentlog approve: no agentlog database at ${missing}\n`,
    });
    expect(existsSync(missing)).toBe(false);
  });
});
