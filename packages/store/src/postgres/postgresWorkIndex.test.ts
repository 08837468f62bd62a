import { spawn, spawnSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { Client } from 'pg';
import { escapeIdentifier } from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import type { NewStreamEvent } from '@agentlog/core';
import { createPostgresEventStore, type PostgresEventStore } from './createPostgresEventStore.js';
import { postgresFindWorkSql } from './createPostgresWorkIndex.js';
import { beginStatement } from './postgresAppend.js';
import { postgresNames, postgresSchemaVersion } from './postgresSchema.js';
import type { SkewedWorkerReport } from '../test/skewedWorker.js';
import { withPostgresClient } from '../test/withPostgresClient.js';

const url = process.env['AGENTLOG_POSTGRES_URL'];
const noServer =
  url === undefined || url === ''
    ? 'AGENTLOG_POSTGRES_URL is not set; start a server with `eval "$(scripts/postgres.sh start)"`'
    : undefined;
const noFaketime =
  spawnSync('faketime', ['-f', '+0', 'true']).status === 0
    ? undefined
    : 'faketime is not installed (Debian: apt-get install faketime)';

const runId = randomBytes(5).toString('hex');
const schemas: string[] = [];
const opened: PostgresEventStore[] = [];

function openStore(schema: string): PostgresEventStore {
  const store = createPostgresEventStore({ connectionString: url ?? '', schema });
  opened.push(store);
  return store;
}

function newSchema(label: string): string {
  const schema = `agentlog_test_${runId}_${label}${schemas.length + 1}`;
  schemas.push(schema);
  return schema;
}

function withClient<T>(work: (client: Client) => Promise<T>): Promise<T> {
  return withPostgresClient(url, work);
}

afterAll(async () => {
  if (noServer !== undefined) return;
  await Promise.all(opened.map((store) => store.close().catch(() => undefined)));
  await withClient(async (client) => {
    for (const schema of schemas) {
      await client.query(`DROP SCHEMA IF EXISTS ${escapeIdentifier(schema)} CASCADE`);
    }
  });
});

const started = (): NewStreamEvent[] => [
  {
    type: 'RunStarted',
    data: {},
    metadata: { eventId: randomUUID(), at: new Date().toISOString(), schemaVersion: 1 },
  },
];

/** Runs the skewed worker under faketime with this offset, and returns what it printed. */
function runSkewed(
  offset: string,
  schema: string,
  agent: string,
  ownStream: string,
): Promise<SkewedWorkerReport> {
  const worker = join(import.meta.dirname, '..', 'test', 'skewedWorker.ts');
  const child = spawn(
    'faketime',
    [
      '-f',
      offset,
      process.execPath,
      '--conditions=source',
      '--import',
      'tsx',
      worker,
      url ?? '',
      schema,
      agent,
      ownStream,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => {
      const line = output.trim().split('\n').pop() ?? '';
      if (code !== 0) reject(new Error(`the skewed worker exited with ${String(code)}: ${output}`));
      else resolve(JSON.parse(line) as SkewedWorkerReport);
    });
  });
}

const minute = 60_000;

/** A node of PostgreSQL's JSON query plan. */
interface PlanNode {
  readonly 'Node Type': string;
  readonly 'Relation Name'?: string;
  readonly 'Index Name'?: string;
  readonly Plans?: readonly PlanNode[];
}

/** Every node of a plan, depth first. */
function planNodes(node: PlanNode | undefined): PlanNode[] {
  if (node === undefined) return [];
  return [node, ...(node.Plans ?? []).flatMap(planNodes)];
}

describe.skipIf(noServer !== undefined || noFaketime !== undefined)(
  `PostgreSQL work index: worker clocks ${noServer ?? noFaketime ?? ''}`,
  () => {
    for (const offset of ['+10m', '-10m']) {
      it(`WRK-4: a worker whose clock is ${offset} off writes and judges leases on the server clock: it takes over no live run and keeps its own`, async () => {
        const schema = newSchema('skew');
        const store = openStore(schema);
        const agent = `agent-${randomUUID()}`;
        const liveStream = `live-${randomUUID()}`;
        const ownStream = `own-${randomUUID()}`;
        // A live run of a worker on a true clock: its lease has a minute left.
        await store.appendToStream(liveStream, started(), {
          expectedRevision: 'noStream',
          work: { status: 'running', agent, owner: 'true-clock', leaseMs: minute },
        });

        const report = await runSkewed(offset, schema, agent, ownStream);

        // The child's clock really was off by about ten minutes (faketime works with node).
        const skew = report.clientNow - Date.now();
        expect(Math.abs(skew)).toBeGreaterThan(9 * minute);
        expect(Math.sign(skew)).toBe(offset.startsWith('+') ? 1 : -1);
        // Its lease was counted from the server's now, not from its own clock.
        const serverNow = Date.parse(report.serverNow);
        expect(Math.abs(serverNow - Date.now())).toBeLessThan(minute);
        const leaseLeft = Date.parse(report.leaseUntil ?? '') - serverNow;
        expect(leaseLeft).toBeGreaterThan(0);
        expect(leaseLeft).toBeLessThanOrEqual(minute);
        expect(report.renewed).toBe(true);
        // It did not see the live run as lapsed...
        expect(report.found).toEqual([]);
        // ...and a worker on a true clock does not see its run as lapsed either.
        expect(await store.work.findWork({ limit: 10, agents: [agent] })).toEqual([]);
        const entries = await store.work.workOf([liveStream, ownStream]);
        expect(entries.get(ownStream)).toMatchObject({ status: 'running', owner: 'skewed' });
        expect(entries.get(liveStream)).toMatchObject({ status: 'running', owner: 'true-clock' });
      }, 60_000);
    }
  },
);

describe('PostgreSQL durability', () => {
  it('sideEffects: only an append that is not durable skips the WAL flush; full flushes every one', () => {
    expect(beginStatement('sideEffects', false)).toBe('BEGIN; SET LOCAL synchronous_commit TO OFF');
    expect(beginStatement('sideEffects', true)).toBe('BEGIN');
    expect(beginStatement('full', false)).toBe('BEGIN');
    expect(beginStatement('full', true)).toBe('BEGIN');
  });

  it('refuses an unknown durability, naming it', () => {
    expect(() =>
      createPostgresEventStore({
        connectionString: 'postgres://127.0.0.1:1/none',
        durability: 'process' as 'full',
      }),
    ).toThrow('PostgreSQL durability must be one of full, sideEffects, not process');
  });
});

describe.skipIf(noServer !== undefined)(
  `PostgreSQL work index: NOTIFY and query plans ${noServer ?? ''}`,
  () => {
    it('an append with status ready on another connection ends a waitForWork(5000) at once (NOTIFY)', async () => {
      const schema = newSchema('notify');
      const worker = openStore(schema);
      const approver = openStore(schema);
      await approver.listStreams();
      // The first wait opens the LISTEN connection.
      await worker.work.waitForWork(0);
      const latencies: number[] = [];
      for (let round = 0; round < 3; round += 1) {
        let appendedAt = 0;
        const woke = worker.work.waitForWork(5_000).then(() => performance.now() - appendedAt);
        appendedAt = performance.now();
        await approver.appendToStream(`approved-${randomUUID()}`, started(), {
          expectedRevision: 'noStream',
          work: { status: 'ready', agent: 'triage' },
        });
        latencies.push(await woke);
      }
      // Machine-speed-proof: far below the 5 s of the wait (it is a few milliseconds here).
      for (const latency of latencies) expect(latency).toBeLessThan(2_000);
    }, 30_000);

    it('an append with status running or idle notifies no worker: waitForWork waits its ms', async () => {
      const schema = newSchema('quiet');
      const worker = openStore(schema);
      const other = openStore(schema);
      await worker.work.waitForWork(0);
      const start = performance.now();
      const waiting = worker.work.waitForWork(1_000);
      await other.appendToStream(`run-${randomUUID()}`, started(), {
        expectedRevision: 'noStream',
        work: { status: 'running', agent: 'triage', owner: 'w', leaseMs: minute },
      });
      await other.appendToStream(`idle-${randomUUID()}`, started(), {
        expectedRevision: 'noStream',
        work: { status: 'idle', agent: 'triage' },
      });
      await waiting;
      expect(performance.now() - start).toBeGreaterThanOrEqual(900);
    }, 30_000);

    it('a schema of version 1 gains the work index on first use, keeping its events', async () => {
      const schema = newSchema('v1');
      const names = postgresNames(schema);
      const before = openStore(schema);
      await before.appendToStream('old', started(), { expectedRevision: 'noStream' });
      await before.close();
      await withClient(async (client) => {
        await client.query(`DROP TABLE ${names.work}, ${names.workers}`);
        await client.query(`UPDATE ${names.meta} SET value = '1' WHERE key = 'schemaVersion'`);
      });
      const after = openStore(schema);
      expect(await after.readStream('old')).toHaveLength(1);
      await after.appendToStream('old', started(), {
        expectedRevision: 0,
        work: { status: 'ready', agent: 'triage' },
      });
      expect(await after.work.findWork({ limit: 5, agents: ['triage'] })).toMatchObject([
        { streamId: 'old', reason: 'ready' },
      ]);
      const version = await withClient((client) =>
        client.query<{ value: string }>(
          `SELECT value FROM ${names.meta} WHERE key = 'schemaVersion'`,
        ),
      );
      expect(version.rows).toEqual([{ value: String(postgresSchemaVersion) }]);
    });

    it('WRK-2 a schema of version 2 allows waiting on first use, and a stream that waits for a decision becomes waiting', async () => {
      const schema = newSchema('v2');
      const names = postgresNames(schema);
      const before = openStore(schema);
      const stop = (kind: string): NewStreamEvent => ({
        type: 'AgentStopped',
        data: {
          reason:
            kind === 'feedbackRequired'
              ? { kind, toolCall: { id: 'c1', name: 'deploy', args: '{}' }, payload: null }
              : { kind: 'noNewMessages' },
          cause: 'loop',
        },
        metadata: { eventId: randomUUID(), at: new Date().toISOString(), schemaVersion: 1 },
      });
      await before.appendToStream('waits', [...started(), stop('feedbackRequired')], {
        expectedRevision: 'noStream',
      });
      await before.appendToStream('done', [...started(), stop('noNewMessages')], {
        expectedRevision: 'noStream',
      });
      await before.close();
      // The work table as schema version 2 created it (copied from postgresSchema.ts before
      // version 3), with the entries version 2 wrote: idle for both streams.
      await withClient(async (client) => {
        await client.query(`DROP TABLE ${names.work}`);
        await client.query(`
          CREATE TABLE ${names.work} (
            stream_id text PRIMARY KEY,
            status text NOT NULL CHECK (status IN ('requested', 'ready', 'running', 'idle')),
            agent text,
            owner text,
            lease_until timestamptz,
            since timestamptz NOT NULL,
            updated timestamptz NOT NULL
          )`);
        await client.query(
          `INSERT INTO ${names.work} (stream_id, status, agent, since, updated)
           VALUES ('waits', 'idle', 'deployer', now(), now()), ('done', 'idle', 'deployer', now(), now())`,
        );
        await client.query(`UPDATE ${names.meta} SET value = '2' WHERE key = 'schemaVersion'`);
      });
      const after = openStore(schema);
      const work = await after.work.workOf();
      expect(new Map([...work].map(([id, entry]) => [id, entry.status]))).toEqual(
        new Map([
          ['done', 'idle'],
          ['waits', 'waiting'],
        ]),
      );
      await after.appendToStream('done', started(), {
        expectedRevision: 1,
        work: { status: 'waiting', agent: 'deployer' },
      });
      expect((await after.work.workOf(['done'])).get('done')?.status).toBe('waiting');
      expect(await after.work.findWork({ limit: 5, agents: ['deployer'] })).toEqual([]);
      expect(await after.readStream('waits')).toHaveLength(2);
      const version = await withClient((client) =>
        client.query<{ value: string }>(
          `SELECT value FROM ${names.meta} WHERE key = 'schemaVersion'`,
        ),
      );
      expect(version.rows).toEqual([{ value: String(postgresSchemaVersion) }]);
      // Opening it again changes nothing.
      const again = openStore(schema);
      expect((await again.work.workOf(['waits'])).get('waits')?.status).toBe('waiting');
    });

    it('waitForWork after close is refused with closed', async () => {
      const store = createPostgresEventStore({
        connectionString: url ?? '',
        schema: newSchema('closed'),
      });
      await store.close();
      await expect(store.work.waitForWork(10)).rejects.toMatchObject({ code: 'closed' });
    });

    it('WRK-6: with 100,000 finished streams, findWork reads only the partial indexes, never the whole table', async () => {
      const schema = newSchema('plan');
      const store = openStore(schema);
      await store.listStreams();
      const names = postgresNames(schema);
      await withClient(async (client) => {
        await client.query(
          `INSERT INTO ${names.work} (stream_id, status, agent, since, updated)
           SELECT 'done-' || n, 'idle', 'triage', now(), now() FROM generate_series(1, 100000) AS n`,
        );
        await client.query(`ANALYZE ${names.work}`);
      });
      for (let n = 0; n < 10; n += 1) {
        await store.appendToStream(`waiting-${n}`, started(), {
          expectedRevision: 'noStream',
          work: { status: 'requested', agent: 'triage' },
        });
      }
      await store.work.setCaps({ triage: 50 });
      expect(await store.work.findWork({ limit: 100, agents: ['triage'] })).toHaveLength(10);
      const plan = await withClient(async (client) => {
        const result = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
          `EXPLAIN (FORMAT JSON) ${postgresFindWorkSql(names)}`,
          [['triage'], 100],
        );
        return result.rows[0]?.['QUERY PLAN'][0].Plan;
      });
      const reads = planNodes(plan).filter((node) => node['Relation Name'] === 'work');
      expect(reads.length).toBeGreaterThanOrEqual(3);
      for (const node of reads) {
        expect(node['Node Type']).toMatch(/^(Bitmap Heap Scan|Index Scan|Index Only Scan)$/);
      }
      const indexes = new Set(planNodes(plan).map((node) => node['Index Name']));
      expect(indexes).toContain('work_waiting');
      expect(indexes).toContain('work_leases');
    }, 60_000);
  },
);
