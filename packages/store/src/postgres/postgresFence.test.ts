import { randomBytes, randomUUID } from 'node:crypto';
import type { Client } from 'pg';
import { escapeIdentifier } from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { isAgentlogError, type AppendOptions, type NewStreamEvent } from '@agentlog/core';
import { createPostgresEventStore, type PostgresEventStore } from './createPostgresEventStore.js';
import { postgresNames } from './postgresSchema.js';
import { sleep } from '../conformance/conformanceHelpers.js';
import { eventually } from '../test/eventually.js';
import { labelledEvent } from '../test/labelledEvent.js';
import { withPostgresClient } from '../test/withPostgresClient.js';

// The fence under real concurrency (SPEC WRK-4, WRK-8), which the conformance suite cannot reach:
// two stores (two pools, as two processes have) claiming one stream at once, and a claim racing
// the fenced append of a holder whose lease lapsed. A third connection holding the stream's work
// row lines both appends up behind it, so they really contend whatever the machine's speed.

const url = process.env['AGENTLOG_POSTGRES_URL'];
const skipReason =
  url === undefined || url === ''
    ? 'AGENTLOG_POSTGRES_URL is not set; start a server with `eval "$(scripts/postgres.sh start)"`'
    : undefined;
const schema = `agentlog_fence_${randomBytes(4).toString('hex')}`;
const opened: PostgresEventStore[] = [];

function openStore(): PostgresEventStore {
  const store = createPostgresEventStore({ connectionString: url ?? '', schema });
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

const claim = (owner: string, leaseMs = 60_000): Partial<AppendOptions> => ({
  work: { status: 'running', agent: 'fenced', owner, leaseMs },
  claim: { owner, leaseMs },
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

/**
 * Runs `appends` one after the other while another connection holds the stream's work row, each
 * once the one before waits for that row, then lets them all go: they contend for real, in the
 * order given, whatever the machine's speed.
 */
async function contended(
  streamId: string,
  appends: readonly (() => Promise<string>)[],
): Promise<string[]> {
  const { work } = postgresNames(schema);
  return withClient(async (holder) => {
    await holder.query('BEGIN');
    await holder.query(`SELECT 1 FROM ${work} WHERE stream_id = $1 FOR UPDATE`, [streamId]);
    const outcomes: Promise<string>[] = [];
    await withClient(async (watcher) => {
      for (const append of appends) {
        outcomes.push(append());
        await eventually(
          async () =>
            (
              await watcher.query(
                `SELECT 1 FROM pg_stat_activity
                 WHERE wait_event_type = 'Lock' AND pid <> pg_backend_pid() AND query LIKE $1`,
                [`%${schema}%`],
              )
            ).rowCount === outcomes.length,
          `${outcomes.length} appends wait for the work row`,
          60_000,
        );
      }
    });
    await holder.query('COMMIT');
    return Promise.all(outcomes);
  });
}

describe.skipIf(skipReason !== undefined)(
  `PostgreSQL fences under concurrency ${skipReason ?? ''}`,
  () => {
    it('WRK-4 two stores claiming a new stream at once: exactly one wins, the other is refused with runOwned', async () => {
      const [one, two] = [openStore(), openStore()];
      for (let round = 0; round < 10; round += 1) {
        const streamId = `fresh-${randomUUID()}`;
        const outcomes = await Promise.all(
          [one, two].map((store, index) =>
            outcome(
              store.appendToStream(streamId, [runStarted(`w${index}`)], {
                expectedRevision: 'noStream',
                ...claim(`w${index}`),
              }),
            ),
          ),
        );
        expect([...outcomes].sort()).toEqual(['ok', 'runOwned']);
        expect(await one.readStream(streamId)).toHaveLength(1);
        const entry = (await one.work.workOf([streamId])).get(streamId);
        expect(entry).toMatchObject({ status: 'running', fence: 0 });
        expect(['w0', 'w1']).toContain(entry?.owner);
      }
    }, 120_000);

    it('WRK-4 two stores claiming a requested stream on the same row at once: exactly one wins', async () => {
      const [one, two] = [openStore(), openStore()];
      for (let round = 0; round < 3; round += 1) {
        const streamId = `requested-${randomUUID()}`;
        await one.appendToStream(streamId, [labelledEvent('request')], {
          expectedRevision: 'noStream',
          work: { status: 'requested', agent: 'fenced' },
        });
        const outcomes = await contended(
          streamId,
          [one, two].map(
            (store, index) => () =>
              outcome(
                store.appendToStream(streamId, [runStarted(`w${index}`)], {
                  expectedRevision: 0,
                  ...claim(`w${index}`),
                }),
              ),
          ),
        );
        expect([...outcomes].sort()).toEqual(['ok', 'runOwned']);
        const stored = await one.readStream(streamId);
        expect(stored.map((event) => event.type)).toEqual(['Labelled', 'RunStarted']);
        const entry = (await one.work.workOf([streamId])).get(streamId);
        expect(entry).toMatchObject({ owner: `w${outcomes.indexOf('ok')}`, fence: 1 });
      }
    }, 120_000);

    it('WRK-8 a claim racing the fenced append of a holder whose lease lapsed: the holder lands before the claim or is refused with leaseLost, never after it', async () => {
      const [holder, claimer] = [openStore(), openStore()];
      for (let round = 0; round < 4; round += 1) {
        const streamId = `lapsed-${randomUUID()}`;
        await holder.appendToStream(streamId, [runStarted('old')], {
          expectedRevision: 'noStream',
          ...claim('old', 200),
        });
        // Waiting longer than the lease only makes it more lapsed: no speed assumption.
        await sleep(400);
        const late = labelledEvent('late');
        // 'any': only the fence can keep it out once the claim is in.
        const held = () =>
          outcome(
            holder.appendToStream(streamId, [late], {
              expectedRevision: 'any',
              work: { status: 'running', agent: 'fenced', owner: 'old', leaseMs: 60_000 },
              fence: 0,
            }),
          );
        const claims = () =>
          outcome(
            claimer.appendToStream(streamId, [runStarted('new')], {
              expectedRevision: 0,
              ...claim('new'),
            }),
          );
        // Half the rounds queue the holder first, half the claim.
        const holderFirst = round % 2 === 0;
        const outcomes = await contended(streamId, holderFirst ? [held, claims] : [claims, held]);
        const [heldOutcome, claimed] = holderFirst ? outcomes : [...outcomes].reverse();
        const stored = await holder.readStream(streamId);
        const ids = stored.map((event) => event.metadata.eventId);
        if (heldOutcome === 'ok') {
          // The holder came first and renewed its lease: the claim found a live run.
          expect(claimed).toBe('runOwned');
          expect(ids).toEqual([stored[0]?.metadata.eventId, late.metadata.eventId]);
        } else {
          expect(heldOutcome).toBe('leaseLost');
          expect(claimed).toBe('ok');
          expect(ids).not.toContain(late.metadata.eventId);
          expect(stored.map((event) => event.type)).toEqual(['RunStarted', 'RunStarted']);
          // And whatever the holder appends from now on is refused.
          expect(
            await outcome(
              holder.appendToStream(streamId, [labelledEvent('later')], {
                expectedRevision: 'any',
                fence: 0,
              }),
            ),
          ).toBe('leaseLost');
        }
      }
    }, 120_000);

    it("a schema of version 3 gains the fence and the workers' agent names on first use", async () => {
      const old = `${schema}_v3`;
      const names = postgresNames(old);
      const before = createPostgresEventStore({ connectionString: url ?? '', schema: old });
      opened.push(before);
      await before.appendToStream('claimed', [runStarted('w1')], { expectedRevision: 'noStream' });
      await before.close();
      try {
        await withClient(async (client) => {
          await client.query(`ALTER TABLE ${names.work} DROP COLUMN fence`);
          await client.query(`ALTER TABLE ${names.workers} DROP COLUMN agents`);
          await client.query(`UPDATE ${names.meta} SET value = '3' WHERE key = 'schemaVersion'`);
        });
        const after = createPostgresEventStore({ connectionString: url ?? '', schema: old });
        opened.push(after);
        await after.appendToStream('claimed', [runStarted('w1')], {
          expectedRevision: 0,
          ...claim('w1'),
        });
        expect((await after.work.workOf(['claimed'])).get('claimed')).toMatchObject({ fence: 1 });
        await after.work.heartbeat({ id: 'w1', host: 'h', pid: 1, runs: [], agents: ['fenced'] });
        expect(await after.work.listWorkers()).toMatchObject([{ id: 'w1', agents: ['fenced'] }]);
      } finally {
        await withClient((client) => client.query(`DROP SCHEMA ${escapeIdentifier(old)} CASCADE`));
      }
    });
  },
);
