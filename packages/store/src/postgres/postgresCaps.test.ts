import { randomBytes, randomUUID } from 'node:crypto';
import type { Client } from 'pg';
import { escapeIdentifier } from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { isAgentlogError, type AppendOptions, type NewStreamEvent } from '@agentlog/core';
import { createPostgresEventStore, type PostgresEventStore } from './createPostgresEventStore.js';
import { postgresNames, postgresSchemaVersion } from './postgresSchema.js';
import { eventually } from '../test/eventually.js';
import { labelledEvent } from '../test/labelledEvent.js';
import { withPostgresClient } from '../test/withPostgresClient.js';

// The caps per agent name under real concurrency (SPEC WRK-10), which the conformance suite
// cannot reach: two stores (two pools, as two processes have) claiming two runs of one agent for
// its last place at once. A third connection holding the agent's caps row lines both claims up
// behind it, so they really contend whatever the machine's speed.

const url = process.env['AGENTLOG_POSTGRES_URL'];
const skipReason =
  url === undefined || url === ''
    ? 'AGENTLOG_POSTGRES_URL is not set; start a server with `eval "$(scripts/postgres.sh start)"`'
    : undefined;
const schema = `agentlog_caps_${randomBytes(4).toString('hex')}`;
const opened: PostgresEventStore[] = [];

function openStore(of = schema): PostgresEventStore {
  const store = createPostgresEventStore({ connectionString: url ?? '', schema: of });
  opened.push(store);
  return store;
}

function withClient<T>(work: (client: Client) => Promise<T>): Promise<T> {
  return withPostgresClient(url, work);
}

afterAll(async () => {
  if (skipReason !== undefined) return;
  await Promise.all(opened.map((store) => store.close().catch(() => undefined)));
  await withClient((client) =>
    client.query(`DROP SCHEMA IF EXISTS ${escapeIdentifier(schema)} CASCADE`),
  );
});

const runStarted = (by: string): NewStreamEvent => ({
  type: 'RunStarted',
  data: { mode: 'run', by },
  metadata: { eventId: randomUUID(), at: new Date().toISOString(), schemaVersion: 1 },
});

const claim = (agent: string, owner: string): Partial<AppendOptions> => ({
  work: { status: 'running', agent, owner, leaseMs: 60_000 },
  claim: { owner, leaseMs: 60_000 },
});

/** What an append came to: `ok`, or the code of the agentlog error it was refused with. */
async function outcome(append: Promise<unknown>): Promise<string> {
  try {
    await append;
    return 'ok';
  } catch (error) {
    if (isAgentlogError(error)) return error.code;
    throw error;
  }
}

/** Requests a run of `agent` on a new stream; resolves with its id. */
async function requested(store: PostgresEventStore, agent: string): Promise<string> {
  const streamId = `${agent}-${randomUUID()}`;
  await store.appendToStream(streamId, [labelledEvent('request')], {
    expectedRevision: 'noStream',
    work: { status: 'requested', agent },
  });
  return streamId;
}

/**
 * Starts `claims` while another connection holds `agent`'s caps row, each once the one before
 * waits for that row, then lets them all go: they contend for real, whatever the machine's speed.
 */
async function contended(
  agent: string,
  claims: readonly (() => Promise<string>)[],
): Promise<string[]> {
  const { caps } = postgresNames(schema);
  return withClient(async (holder) => {
    await holder.query('BEGIN');
    await holder.query(`SELECT 1 FROM ${caps} WHERE agent = $1 FOR UPDATE`, [agent]);
    const outcomes: Promise<string>[] = [];
    await withClient(async (watcher) => {
      for (const run of claims) {
        outcomes.push(run());
        await eventually(
          async () =>
            (
              await watcher.query(
                `SELECT 1 FROM pg_stat_activity
                 WHERE wait_event_type = 'Lock' AND pid <> pg_backend_pid() AND query LIKE $1`,
                [`%${schema}%claim_cap%`],
              )
            ).rowCount === outcomes.length,
          `${outcomes.length} claims wait for the caps row`,
          60_000,
        );
      }
    });
    await holder.query('COMMIT');
    return Promise.all(outcomes);
  });
}

describe.skipIf(skipReason !== undefined)(
  `PostgreSQL caps under concurrency ${skipReason ?? ''}`,
  () => {
    it('WRK-10 two stores claiming two runs of an agent for its last place at once: exactly one wins, the other is refused with agentAtCap and appends nothing', async () => {
      const [one, two] = [openStore(), openStore()];
      for (let round = 0; round < 3; round += 1) {
        const agent = `capped-${round}-${randomBytes(3).toString('hex')}`;
        await one.work.setCaps({ [agent]: 1 });
        const streams = [await requested(one, agent), await requested(two, agent)];
        const outcomes = await contended(
          agent,
          [one, two].map(
            (store, index) => () =>
              outcome(
                store.appendToStream(streams[index] as string, [runStarted(`w${index}`)], {
                  expectedRevision: 0,
                  ...claim(agent, `w${index}`),
                }),
              ),
          ),
        );
        expect([...outcomes].sort()).toEqual(['agentAtCap', 'ok']);
        const refused = streams[outcomes.indexOf('agentAtCap')] as string;
        expect((await one.readStream(refused)).map((event) => event.type)).toEqual(['Labelled']);
        expect((await one.work.workOf([refused])).get(refused)).toEqual({
          status: 'requested',
          agent,
        });
        const work = await one.work.workOf(streams);
        expect([...work.values()].filter((entry) => entry.status === 'running')).toHaveLength(1);
      }
    }, 120_000);

    it('WRK-10 many claims of one capped agent from two stores at once: never more runs than its cap', async () => {
      const [one, two] = [openStore(), openStore()];
      const agent = `many-${randomBytes(3).toString('hex')}`;
      await one.work.setCaps({ [agent]: 3 });
      const stores = [one, two];
      const streams = await Promise.all(
        Array.from({ length: 12 }, (_, n) => requested(stores[n % 2] as PostgresEventStore, agent)),
      );
      const outcomes = await Promise.all(
        streams.map((streamId, n) =>
          outcome(
            (stores[n % 2] as PostgresEventStore).appendToStream(streamId, [runStarted(`w${n}`)], {
              expectedRevision: 0,
              ...claim(agent, `w${n}`),
            }),
          ),
        ),
      );
      expect(outcomes.filter((code) => code === 'ok')).toHaveLength(3);
      expect(outcomes.filter((code) => code === 'agentAtCap')).toHaveLength(9);
      const work = await one.work.workOf(streams);
      expect([...work.values()].filter((entry) => entry.status === 'running')).toHaveLength(3);
    }, 120_000);

    it('WRK-10 a schema of version 4 gains the caps on first use', async () => {
      const old = `${schema}_v4`;
      const names = postgresNames(old);
      const before = openStore(old);
      await before.appendToStream('live', [runStarted('w1')], {
        expectedRevision: 'noStream',
        ...claim('triage', 'w1'),
      });
      await before.close();
      try {
        await withClient(async (client) => {
          await client.query(`DROP TABLE ${names.caps}`);
          await client.query(`DROP FUNCTION ${escapeIdentifier(old)}.claim_cap_v1`);
          await client.query(`UPDATE ${names.meta} SET value = '4' WHERE key = 'schemaVersion'`);
        });
        const after = openStore(old);
        expect(await after.work.caps()).toEqual({});
        expect(await after.work.setCaps({ triage: 1 })).toEqual({});
        const asked = await requested(after, 'triage');
        expect(
          await outcome(
            after.appendToStream(asked, [runStarted('w2')], {
              expectedRevision: 0,
              ...claim('triage', 'w2'),
            }),
          ),
        ).toBe('agentAtCap');
        const version = await withClient((client) =>
          client.query(`SELECT value FROM ${names.meta} WHERE key = 'schemaVersion'`),
        );
        expect(version.rows).toEqual([{ value: String(postgresSchemaVersion) }]);
      } finally {
        await withClient((client) => client.query(`DROP SCHEMA ${escapeIdentifier(old)} CASCADE`));
      }
    });
  },
);
