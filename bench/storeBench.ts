import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createPostgresEventStore } from '@agentlog/store/postgres';
import {
  createSqliteEventStore,
  readJsonl,
  writeJsonl,
  type EventStore,
  type NewStreamEvent,
  type StreamEvent,
} from '@agentlog/store';
import { uuidV7 } from '@agentlog/core';
import { printBenchTable, type StoreBenchResult } from './printBenchTable.js';

const total = 100_000;
const batchSize = 500;
const targets = { sqliteAppendPerSecond: 50_000, fullReadSeconds: 0.5 };

/**
 * An event of about 300 bytes of JSON once stored (with its revision). Its id comes from `newId`:
 * `uuidV7`, the agent's default, or random version 4 UUIDs for comparison.
 */
function benchEvent(index: number, newId: () => string = uuidV7): NewStreamEvent {
  return {
    type: 'ToolCallCompleted',
    data: { callId: `call-${index}`, tool: 'search', output: 'lorem ipsum dolor '.repeat(5) },
    metadata: {
      eventId: newId(),
      at: new Date(1_750_000_000_000 + index).toISOString(),
      schemaVersion: 1,
    },
  };
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const start = performance.now();
  await work();
  return (performance.now() - start) / 1_000;
}

/** Appends `total` events in batches to a fresh stream, then reads it whole, checking the count. */
async function measureStore(name: string, store: EventStore, events: readonly NewStreamEvent[]) {
  const streamId = `bench-${randomBytes(6).toString('hex')}`;
  const appendSeconds = await timed(async () => {
    let expectedRevision: number | 'noStream' = 'noStream';
    for (let start = 0; start < events.length; start += batchSize) {
      const batch = events.slice(start, start + batchSize);
      ({ nextExpectedRevision: expectedRevision } = await store.appendToStream(streamId, batch, {
        expectedRevision,
      }));
    }
  });
  let count = 0;
  const readSeconds = await timed(async () => {
    count = (await store.readStream(streamId)).length;
  });
  if (count !== events.length) throw new Error(`${name}: read ${count} of ${events.length} events`);
  return { store: name, appendPerSecond: events.length / appendSeconds, readSeconds };
}

async function measureJsonl(dir: string, events: readonly NewStreamEvent[]) {
  const stored: StreamEvent[] = events.map((event, revision) => ({
    ...event,
    metadata: { ...event.metadata, revision },
  }));
  const path = join(dir, 'bench.jsonl');
  const appendSeconds = await timed(() => writeJsonl(path, stored));
  let count = 0;
  const readSeconds = await timed(async () => {
    count = (await readJsonl(path)).events.length;
  });
  if (count !== events.length) throw new Error(`JSONL: read ${count} of ${events.length} events`);
  const bytes = (await stat(path)).size;
  return {
    store: 'JSONL file',
    appendPerSecond: events.length / appendSeconds,
    readSeconds,
    note: `${Math.round(bytes / events.length)} bytes/event`,
  };
}

async function measureSqlite(
  name: string,
  dir: string,
  events: readonly NewStreamEvent[],
): Promise<StoreBenchResult> {
  const store = createSqliteEventStore({ path: join(dir, `${randomBytes(4).toString('hex')}.db`) });
  try {
    return await measureStore(name, store, events);
  } finally {
    store.close();
  }
}

/** SQLite on a RAM disk: no disk cost, so what remains is agentlog's and SQLite's CPU time. */
async function measureSqliteOnTmpfs(
  events: readonly NewStreamEvent[],
): Promise<StoreBenchResult | undefined> {
  const ramDisk = '/dev/shm';
  const hasRamDisk = await stat(ramDisk).then((found) => found.isDirectory(), returnFalse);
  if (!hasRamDisk) return undefined;
  const dir = await mkdtemp(join(ramDisk, 'agentlog-bench-'));
  try {
    const result = await measureSqlite('SQLite (WAL, tmpfs)', dir, events);
    return { ...result, note: 'no disk: the CPU ceiling' };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function returnFalse(): false {
  return false;
}

async function measurePostgres(events: readonly NewStreamEvent[]) {
  const url = process.env['AGENTLOG_POSTGRES_URL'];
  if (url === undefined || url === '') return 'skipped: AGENTLOG_POSTGRES_URL is not set';
  // A schema of its own, dropped afterwards, so the bench leaves nothing in the database.
  const schema = `agentlog_bench_${randomBytes(4).toString('hex')}`;
  const store = createPostgresEventStore({ connectionString: url, schema });
  try {
    return await measureStore('PostgreSQL', store, events);
  } finally {
    await store.close();
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
    await client.end();
  }
}

/**
 * Measures append (batches of 500) and full-read throughput of 100,000 events of about 300 bytes
 * on SQLite, on PostgreSQL when `AGENTLOG_POSTGRES_URL` is set, and on a JSONL file as the floor,
 * then prints a table and whether the SQLite targets hold. Returns false when a target is missed.
 */
export async function runStoreBench(): Promise<boolean> {
  const events = Array.from({ length: total }, (_, index) => benchEvent(index));
  const dir = await mkdtemp(join(tmpdir(), 'agentlog-bench-'));
  try {
    // Timings on a busy machine say little; the load average tells the reader how busy it was.
    const [load] = loadavg();
    console.log(
      `store bench: ${total.toLocaleString('en-US')} events, batches of ${batchSize}; load average ${load?.toFixed(1)} on ${availableParallelism()} cores\n`,
    );
    // SQLite first: the JSONL floor writes 30 MB whose flush would slow SQLite's syncs down.
    const onSqlite = await measureSqlite('SQLite (WAL)', dir, events);
    const randomIds = Array.from({ length: total }, (_, index) => benchEvent(index, randomUUID));
    const onRandomIds = {
      ...(await measureSqlite('SQLite, UUIDv4 ids', dir, randomIds)),
      note: 'random ids scatter index writes',
    };
    const floor = await measureJsonl(dir, events);
    const onTmpfs = await measureSqliteOnTmpfs(events);
    const onPostgres = await measurePostgres(events);
    const results = [
      onSqlite,
      onRandomIds,
      ...(onTmpfs === undefined ? [] : [onTmpfs]),
      ...(typeof onPostgres === 'string' ? [] : [onPostgres]),
      floor,
    ];
    printBenchTable(results, floor, total);
    if (typeof onPostgres === 'string') console.log(`\nPostgreSQL ${onPostgres}`);
    const appendOk = onSqlite.appendPerSecond >= targets.sqliteAppendPerSecond;
    const readOk = onSqlite.readSeconds < targets.fullReadSeconds;
    console.log(`\ntargets (SQLite):`);
    console.log(
      `  ${appendOk ? 'PASS' : 'FAIL'} append >= ${targets.sqliteAppendPerSecond.toLocaleString('en-US')} events/s in batches`,
    );
    console.log(
      `  ${readOk ? 'PASS' : 'FAIL'} full read of ${total.toLocaleString('en-US')} events < ${targets.fullReadSeconds} s`,
    );
    return appendOk && readOk;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = (await runStoreBench()) ? 0 : 1;
}
