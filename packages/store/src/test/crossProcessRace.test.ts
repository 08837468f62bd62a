import { fork } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, approvalRequired, tool, ToolFeedback, type EventStore } from '@agentlog/core';
import { counterIds, scriptedModel, toolCallResponse } from '@agentlog/core/testing';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createPostgresEventStore } from '../postgres/createPostgresEventStore.js';
import { createSqliteEventStore } from '../sqlite/createSqliteEventStore.js';
import { raceTools } from './raceTools.js';

const worker = join(import.meta.dirname, 'raceWorker.ts');
const postgresUrl = process.env.AGENTLOG_POSTGRES_URL;

interface Outcome {
  readonly name: string;
  readonly ok: boolean;
  readonly code?: string;
  readonly message?: string;
}

/** Puts a stream into "waiting for approval", approved, as one process would leave it. */
async function prepareWaitingStream(store: EventStore, streamId: string): Promise<void> {
  const deploy = approvalRequired(
    tool({ ...raceTools.deploy, parameters: z.object({}), execute: () => 'never runs here' }),
  );
  const agent = await Agent.builder()
    .llm(scriptedModel([toolCallResponse([{ name: 'deploy', args: {}, id: 'd1' }])]))
    .tools([deploy])
    .store(store)
    .streamId(streamId)
    .ids(counterIds('setup'))
    .build();
  await agent.query('Deploy the service');
  await agent
    .context()
    .feedbackReceived({ id: 'd1', name: 'deploy' }, ToolFeedback.approved(), { by: 'ops' });
}

/** Forks two processes that resume the stream at the same moment; resolves with both outcomes. */
async function race(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<Outcome[]> {
  const children = ['p1', 'p2'].map((name) =>
    fork(worker, [...args, name], {
      execArgv: ['--conditions=source', '--import', 'tsx'],
      env: { ...process.env, ...env },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    }),
  );
  const ready = children.map(
    (child) => new Promise<void>((resolve) => child.once('message', () => resolve())),
  );
  const outcomes = children.map(
    (child) =>
      new Promise<Outcome>((resolve, reject) => {
        child.on('message', (message: Outcome & { ready?: boolean }) => {
          if (message.ready !== true) resolve(message);
        });
        child.once('exit', (code) =>
          reject(new Error(`race worker exited with ${String(code)} before reporting`)),
        );
      }),
  );
  await Promise.all(ready);
  for (const child of children) child.send('go');
  return Promise.all(outcomes);
}

async function expectOneWinner(
  store: EventStore,
  streamId: string,
  outcomes: Outcome[],
  counterFile: string,
): Promise<void> {
  const winners = outcomes.filter((outcome) => outcome.ok);
  const losers = outcomes.filter((outcome) => !outcome.ok);
  expect(winners).toHaveLength(1);
  expect(losers).toHaveLength(1);
  // The winner's claim is stored first: the store refuses the other's, its lease being live (WRK-4).
  expect(losers[0]?.code).toBe('runOwned');
  expect((await readFile(counterFile, 'utf8')).trim().split('\n')).toEqual([winners[0]?.name]);
  const events = await store.readStream(streamId);
  expect(
    events.filter((event) => event.metadata.eventId.startsWith(`${losers[0]?.name}-`)),
  ).toEqual([]);
  expect(events.filter((event) => event.type === 'ToolCallCompleted')).toHaveLength(1);
  expect(events.at(-1)?.type).toBe('AgentStopped');
}

describe('two OS processes race to resume one waiting stream', () => {
  it('RES-3 on SQLite: exactly one run completes, the store refuses the other claim (RunOwnedError, WRK-4) and it appends nothing; the tool ran once', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'agentlog-race-'));
    const path = join(dir, 'agentlog.db');
    const counterFile = join(dir, 'deploys.txt');
    await writeFile(counterFile, '');
    const store = createSqliteEventStore({ path });
    try {
      await prepareWaitingStream(store, 'race');
      const outcomes = await race(['sqlite', path, 'race', counterFile]);
      await expectOneWinner(store, 'race', outcomes, counterFile);
    } finally {
      store.close();
    }
  }, 30_000);

  it.skipIf(postgresUrl === undefined)(
    'RES-3 on PostgreSQL: exactly one run completes, the store refuses the other claim (RunOwnedError, WRK-4) and it appends nothing; the tool ran once (skipped without AGENTLOG_POSTGRES_URL)',
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'agentlog-race-'));
      const counterFile = join(dir, 'deploys.txt');
      await writeFile(counterFile, '');
      const schema = `agentlog_race_${process.pid}`;
      const store = createPostgresEventStore({ connectionString: postgresUrl ?? '', schema });
      try {
        await prepareWaitingStream(store, 'race');
        const outcomes = await race(['postgres', postgresUrl ?? '', 'race', counterFile], {
          RACE_SCHEMA: schema,
        });
        await expectOneWinner(store, 'race', outcomes, counterFile);
      } finally {
        await store.close();
        const pool = new pg.Pool({ connectionString: postgresUrl });
        await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).finally(() => pool.end());
      }
    },
    30_000,
  );
});
