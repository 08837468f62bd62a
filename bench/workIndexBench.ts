import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import pg from 'pg';
import type { EventStore, NewStreamEvent, WorkIndex } from '@agentlog/core';
import { createSqliteEventStore } from '@agentlog/store';
import { createPostgresEventStore } from '@agentlog/store/postgres';
import { benchPostgres } from './benchPostgres.js';
import { fleetSettings, postgresFleetFigures } from './postgresFleetFigures.js';

// SPEC WRK-6: finding work costs what the work costs, not what the store holds. This bench times
// `findWork` with 10 waiting streams alone, and with the same 10 beside 100,000 finished ones, on
// SQLite and (when AGENTLOG_POSTGRES_URL is set) PostgreSQL; and on PostgreSQL how long a worker
// in `waitForWork` takes to wake after another connection's append makes a stream ready (NOTIFY).
// The finished streams are inserted directly as `idle` rows of the index: findWork never reads the
// events table, so their events would change nothing but the time to set the bench up.
// Then the PostgreSQL fleet (issue 28, postgresFleetFigures.ts): runs per second and CPU per step
// with 1, 2 and 4 worker processes against one process without workers, and decision latency.
// Without AGENTLOG_POSTGRES_URL it starts a throwaway server (scripts/postgres.sh) and stops it.
//   npm run bench:work [-- --quick] [-- --fleet]   (--quick: 100 runs; --fleet: the fleet alone;
//   --runs=N and --workers=0,1,4 for some rows of the fleet, see fleetSettings)

const finished = 100_000;
const waiting = 10;
const calls = 500;

function started(): NewStreamEvent[] {
  return [
    {
      type: 'RunRequested',
      data: {},
      metadata: { eventId: randomUUID(), at: new Date().toISOString(), schemaVersion: 1 },
    },
  ];
}

async function addWaiting(store: EventStore): Promise<void> {
  for (let n = 0; n < waiting; n += 1) {
    await store.appendToStream(`waiting-${n}-${randomUUID()}`, started(), {
      expectedRevision: 'noStream',
      work: { status: 'requested', agent: 'triage' },
    });
  }
}

/** Median and 95th percentile of `calls` findWork calls, in microseconds, after a warm-up. */
async function timeFindWork(work: WorkIndex): Promise<{ median: number; p95: number }> {
  // A cap the store holds (SPEC WRK-10), so the count of live runs is part of what is timed.
  await work.setCaps({ triage: 50 });
  const find = () => work.findWork({ limit: 10, agents: ['triage'] });
  for (let n = 0; n < 50; n += 1) await find();
  const times: number[] = [];
  for (let n = 0; n < calls; n += 1) {
    const start = performance.now();
    const items = await find();
    times.push((performance.now() - start) * 1000);
    if (items.length !== waiting) throw new Error(`findWork found ${items.length} streams`);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(calls / 2)] ?? 0, p95: times[Math.floor(calls * 0.95)] ?? 0 };
}

async function sqliteFigures(dir: string): Promise<string[]> {
  const rows: string[] = [];
  for (const size of [0, finished]) {
    const path = join(dir, `work-${size}.db`);
    createSqliteEventStore({ path }).close();
    const raw = new Database(path);
    raw
      .prepare(
        `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
         INSERT INTO agentlog_work (stream_id, status, agent, since, updated)
         SELECT 'done-' || i, 'idle', 'triage', 0, 0 FROM n`,
      )
      .run(size);
    raw.close();
    const store = createSqliteEventStore({ path });
    await addWaiting(store);
    const { median, p95 } = await timeFindWork(store.work);
    rows.push(row('SQLite', size, median, p95));
    store.close();
  }
  return rows;
}

async function postgresFigures(url: string): Promise<string[]> {
  const rows: string[] = [];
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const schemas: string[] = [];
  try {
    for (const size of [0, finished]) {
      const schema = `agentlog_bench_${randomBytes(4).toString('hex')}`;
      schemas.push(schema);
      const store = createPostgresEventStore({ connectionString: url, schema });
      await store.listStreams();
      await client.query(
        `INSERT INTO ${schema}.work (stream_id, status, agent, since, updated)
         SELECT 'done-' || n, 'idle', 'triage', now(), now() FROM generate_series(1, $1::int) AS n`,
        [size],
      );
      await client.query(`ANALYZE ${schema}.work`);
      await addWaiting(store);
      const { median, p95 } = await timeFindWork(store.work);
      rows.push(row('PostgreSQL', size, median, p95));
      if (size === finished) rows.push(...(await notifyLatency(store, url, schema)));
      await store.close();
    }
  } finally {
    for (const schema of schemas) await client.query(`DROP SCHEMA ${schema} CASCADE`);
    await client.end();
  }
  return rows;
}

/** How long after an append with status ready (from another pool) a waiting worker wakes. */
async function notifyLatency(worker: EventStore, url: string, schema: string): Promise<string[]> {
  const work = worker.work as WorkIndex;
  const approver = createPostgresEventStore({ connectionString: url, schema });
  await approver.listStreams();
  await work.waitForWork(0);
  const latencies: number[] = [];
  for (let round = 0; round < 20; round += 1) {
    let appendedAt = 0;
    const woke = work.waitForWork(5_000).then(() => performance.now() - appendedAt);
    appendedAt = performance.now();
    await approver.appendToStream(`approved-${randomUUID()}`, started(), {
      expectedRevision: 'noStream',
      work: { status: 'ready', agent: 'approved' },
    });
    latencies.push(await woke);
  }
  await approver.close();
  latencies.sort((a, b) => a - b);
  const ms = (value: number | undefined) => `${(value ?? 0).toFixed(1)} ms`;
  return [
    `| PostgreSQL NOTIFY: append (status ready) to waitForWork waking, 20 rounds | median ${ms(latencies[10])} | max ${ms(latencies[19])} |`,
  ];
}

function row(store: string, size: number, median: number, p95: number): string {
  const streams =
    size === 0
      ? `${waiting} waiting`
      : `${waiting} waiting + ${size.toLocaleString('en')} finished`;
  return `| ${store} findWork, ${streams} | median ${median.toFixed(0)} µs | p95 ${p95.toFixed(0)} µs |`;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const quick = args.includes('--quick');
  const fleetOnly = args.includes('--fleet');
  const dir = await mkdtemp(join(tmpdir(), 'agentlog-work-bench-'));
  const server = benchPostgres();
  try {
    if (!fleetOnly) {
      console.log('| what | median | tail |');
      console.log('| --- | --- | --- |');
      for (const line of await sqliteFigures(dir)) console.log(line);
      for (const line of await postgresFigures(server.url)) console.log(line);
    }
    const settings = fleetSettings(quick, args);
    console.log(
      `\nPostgreSQL fleet: ${settings.runs} requested runs of 10 steps (model answers after 20 ms), ` +
        `${settings.concurrency} runs per worker process${server.throwaway ? ', throwaway server' : ''}\n`,
    );
    for (const line of await postgresFleetFigures(server.url, settings)) console.log(line);
  } finally {
    server.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main();
}
