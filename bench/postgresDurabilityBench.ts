import { randomBytes, randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import type { NewStreamEvent } from '@agentlog/core';
import { createPostgresEventStore, type PostgresDurability } from '@agentlog/store/postgres';

// What a step of the agent with tools costs on PostgreSQL for each `durability`: two commits,
// the starts of the tool calls (durable when a tool is not idempotent) and their outcomes (never
// durable). It counts the WAL syncs of the whole server (pg_stat_wal.wal_sync, PostgreSQL 14+)
// and times the steps. Needs AGENTLOG_POSTGRES_URL and a server nobody else writes to meanwhile.

const steps = 500;

function events(type: string): NewStreamEvent[] {
  return [
    {
      type,
      data: { tool: 'ping', output: 'pong' },
      metadata: { eventId: randomUUID(), at: new Date().toISOString(), schemaVersion: 1 },
    },
  ];
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function walSyncs(client: pg.Client): Promise<number> {
  // A backend reports its statistics when it exits (or when it has been idle a while): the store
  // is closed before this is read, and the server gets a moment to take the reports in.
  await sleep(500);
  const result = await client.query<{ wal_sync: string }>('SELECT wal_sync FROM pg_stat_wal');
  return Number(result.rows[0]?.wal_sync ?? Number.NaN);
}

async function measure(
  url: string,
  client: pg.Client,
  durability: PostgresDurability,
  idempotentTool: boolean,
): Promise<string> {
  const schema = `agentlog_bench_${randomBytes(4).toString('hex')}`;
  const store = createPostgresEventStore({ connectionString: url, schema, durability });
  const streamId = `steps-${randomUUID()}`;
  let revision = -1;
  const append = async (type: string, durable: boolean) => {
    const result = await store.appendToStream(streamId, events(type), {
      expectedRevision: revision < 0 ? 'noStream' : revision,
      durable,
    });
    revision = result.nextExpectedRevision;
  };
  await store.listStreams(); // creates the schema
  const before = await walSyncs(client);
  const start = performance.now();
  for (let step = 0; step < steps; step += 1) {
    await append('ToolCallsStarted', !idempotentTool);
    await append('ToolCallsCompleted', false);
  }
  const ms = (performance.now() - start) / steps;
  await store.close();
  const syncs = ((await walSyncs(client)) - before) / steps;
  await client.query(`DROP SCHEMA ${schema} CASCADE`);
  const tool = idempotentTool ? 'idempotent tool' : 'tool not idempotent';
  return `| ${durability} | ${tool} | ${ms.toFixed(2)} ms | ${syncs.toFixed(2)} |`;
}

async function main(): Promise<void> {
  const url = process.env['AGENTLOG_POSTGRES_URL'];
  if (url === undefined || url === '') {
    console.log('set AGENTLOG_POSTGRES_URL');
    return;
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    console.log(`| durability | step | time per step | WAL syncs per step |`);
    console.log('| --- | --- | --- | --- |');
    for (const durability of ['full', 'sideEffects'] as const) {
      for (const idempotentTool of [false, true]) {
        console.log(await measure(url, client, durability, idempotentTool));
      }
    }
  } finally {
    await client.end();
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await main();
}
