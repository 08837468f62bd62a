import { randomBytes, randomUUID } from 'node:crypto';
import { Client, escapeIdentifier } from 'pg';
import { firstValueFrom, take, timeout, toArray } from 'rxjs';
import { afterAll, describe, expect, it } from 'vitest';
import type { NewStreamEvent } from '@agentlog/core';
import {
  describeEventStoreConformance,
  describeWorkIndexConformance,
} from '../conformance/eventStoreConformance.js';
import {
  countPostgresSubscriptions,
  createPostgresEventStore,
  type PostgresEventStore,
} from './createPostgresEventStore.js';
import { sleep } from '../conformance/conformanceHelpers.js';
import { postgresSchemaVersion } from './postgresSchema.js';
import { eventually } from '../test/eventually.js';
import { labelledEvent as event } from '../test/labelledEvent.js';

const url = process.env['AGENTLOG_POSTGRES_URL'];
const skipReason =
  url === undefined || url === ''
    ? 'AGENTLOG_POSTGRES_URL is not set; start a server with `eval "$(scripts/postgres.sh start)"`'
    : undefined;

const runId = randomBytes(5).toString('hex');
/** Every schema this run creates; all are dropped when the file is done. */
const schemas: string[] = [];
let schemaCounter = 0;

function newSchema(label: string): string {
  schemaCounter += 1;
  const schema = `agentlog_test_${runId}_${label}${schemaCounter}`;
  schemas.push(schema);
  return schema;
}

function connectionString(): string {
  if (url === undefined || url === '') throw new Error('AGENTLOG_POSTGRES_URL is not set');
  return url;
}

const opened: PostgresEventStore[] = [];

function openStore(schema: string): PostgresEventStore {
  const store = createPostgresEventStore({ connectionString: connectionString(), schema });
  opened.push(store);
  return store;
}

async function withClient<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: connectionString() });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

afterAll(async () => {
  if (skipReason !== undefined) return;
  await Promise.all(opened.map((store) => store.close().catch(() => undefined)));
  await withClient(async (client) => {
    for (const schema of schemas) {
      await client.query(`DROP SCHEMA IF EXISTS ${escapeIdentifier(schema)} CASCADE`);
    }
  });
});

describeEventStoreConformance(
  'PostgreSQL event store',
  () => {
    const store = createPostgresEventStore({
      connectionString: connectionString(),
      schema: newSchema('conformance'),
    });
    return Promise.resolve({ store, close: () => store.close() });
  },
  skipReason === undefined ? {} : { skip: skipReason },
);

describeWorkIndexConformance(
  'PostgreSQL work index',
  () => {
    const store = createPostgresEventStore({
      connectionString: connectionString(),
      schema: newSchema('work'),
    });
    return Promise.resolve({ store, close: () => store.close() });
  },
  skipReason === undefined ? {} : { skip: skipReason },
);

const specifics = skipReason === undefined ? describe : describe.skip;
const specificsTitle =
  skipReason === undefined
    ? 'PostgreSQL event store specifics'
    : `PostgreSQL event store specifics (skipped: ${skipReason})`;

specifics(specificsTitle, () => {
  it('RES-3: two stores on two pools (two processes) race on one stream: one wins, the other gets a ConcurrencyError, nothing doubled', async () => {
    const schema = newSchema('race');
    const one = openStore(schema);
    const two = openStore(schema);
    const streamId = `race-${randomUUID()}`;
    await one.appendToStream(streamId, [event('start')], { expectedRevision: 'noStream' });
    const rounds = 20;
    for (let round = 0; round < rounds; round += 1) {
      const outcomes = await Promise.allSettled([
        one.appendToStream(streamId, [event(`one-${round}`), event(`one-${round}-b`)], {
          expectedRevision: round * 2,
        }),
        two.appendToStream(streamId, [event(`two-${round}`), event(`two-${round}-b`)], {
          expectedRevision: round * 2,
        }),
      ]);
      const won = outcomes.filter((outcome) => outcome.status === 'fulfilled');
      const lost = outcomes.filter(
        (outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected',
      );
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(1);
      expect(lost[0]?.reason).toMatchObject({
        name: 'ConcurrencyError',
        code: 'concurrency',
        streamId,
        expected: round * 2,
        actual: round * 2 + 2,
      });
    }
    const stored = await two.readStream(streamId);
    expect(stored.map((e) => e.metadata.revision)).toEqual(
      Array.from({ length: rounds * 2 + 1 }, (_, index) => index),
    );
    const ids = stored.map((e) => e.metadata.eventId);
    expect(new Set(ids).size).toBe(ids.length);
    // Each round stored the whole batch of exactly one writer.
    for (let round = 0; round < rounds; round += 1) {
      const labels = stored.slice(1 + round * 2, 3 + round * 2).map((e) => e.data);
      expect([
        [{ label: `one-${round}` }, { label: `one-${round}-b` }],
        [{ label: `two-${round}` }, { label: `two-${round}-b` }],
      ]).toContainEqual(labels);
    }
  });

  it('RES-3: an insert that collides with a transaction committing meanwhile (23505) becomes a ConcurrencyError with the actual revision; with "any" it lands after it', async () => {
    const schema = newSchema('collide');
    const store = openStore(schema);
    const streamId = `collide-${randomUUID()}`;
    await store.appendToStream(streamId, [event('first')], { expectedRevision: 'noStream' });
    const table = `${escapeIdentifier(schema)}.events`;
    const insertRaw = (client: Client, revision: number): Promise<unknown> =>
      client.query(
        `INSERT INTO ${table} (stream_id, revision, event_id, type, data, metadata)
         VALUES ($1, $2, $3, 'Raw', '{}', $4)`,
        [
          streamId,
          revision,
          `raw-${revision}`,
          JSON.stringify({ eventId: `raw-${revision}`, at: 'now', schemaVersion: 1 }),
        ],
      );
    const waitForBlockedInsert = (watcher: Client): Promise<void> =>
      eventually(async () => {
        const blocked = await watcher.query(
          `SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE 'INSERT INTO ${table}%'`,
        );
        return blocked.rowCount !== null && blocked.rowCount > 0;
      }, 'the append waits for the other transaction');

    await withClient(async (other) => {
      await withClient(async (watcher) => {
        // Another writer has inserted revision 1 but not committed: the store cannot see it yet.
        await other.query('BEGIN');
        await insertRaw(other, 1);
        const stale = store.appendToStream(streamId, [event('stale')], { expectedRevision: 0 });
        const outcome = stale.then(
          () => undefined,
          (error: unknown) => error,
        );
        await waitForBlockedInsert(watcher);
        await other.query('COMMIT');
        expect(await outcome).toMatchObject({
          name: 'ConcurrencyError',
          streamId,
          expected: 0,
          actual: 1,
        });

        await other.query('BEGIN');
        await insertRaw(other, 2);
        const anyAppend = store.appendToStream(streamId, [event('any')], {
          expectedRevision: 'any',
        });
        await waitForBlockedInsert(watcher);
        await other.query('COMMIT');
        expect(await anyAppend).toEqual({ nextExpectedRevision: 3 });
      });
    });
    const types = (await store.readStream(streamId)).map((e) => e.type);
    expect(types).toEqual(['Labelled', 'Raw', 'Raw', 'Labelled']);
  });

  it('creates its schema once when several stores start on it at the same time', async () => {
    const schema = newSchema('concurrent');
    const stores = Array.from({ length: 6 }, () => openStore(schema));
    const listed = await Promise.all(stores.map((store) => store.listStreams()));
    expect(listed).toEqual(stores.map(() => []));
    await Promise.all(
      stores.map((store, index) =>
        store.appendToStream(`stream-${index}`, [event(`e${index}`)], {
          expectedRevision: 'noStream',
        }),
      ),
    );
    const meta = await withClient((client) =>
      client.query<{ key: string; value: string }>(
        `SELECT key, value FROM ${escapeIdentifier(schema)}.meta`,
      ),
    );
    expect(meta.rows).toEqual([{ key: 'schemaVersion', value: String(postgresSchemaVersion) }]);
    expect((await stores[0]?.listStreams())?.sort()).toEqual(
      stores.map((_, index) => `stream-${index}`).sort(),
    );
  });

  it('refuses a schema written by a newer version, telling to upgrade', async () => {
    const schema = newSchema('newer');
    await openStore(schema).listStreams();
    await withClient((client) =>
      client.query(
        `UPDATE ${escapeIdentifier(schema)}.meta SET value = '99' WHERE key = 'schemaVersion'`,
      ),
    );
    const later = openStore(schema);
    await expect(later.listStreams()).rejects.toMatchObject({
      name: 'AgentlogError',
      code: 'newerSchema',
      message: expect.stringContaining('upgrade @agentlog/store') as unknown,
    });
    await expect(
      later.appendToStream('s', [event('x')], { expectedRevision: 'any' }),
    ).rejects.toMatchObject({ code: 'newerSchema' });
  });

  it('refuses an invalid schema name', () => {
    expect(() =>
      createPostgresEventStore({ connectionString: connectionString(), schema: 'Bad-Name' }),
    ).toThrow(/invalid PostgreSQL schema name "Bad-Name"/);
  });

  it('reads events back byte for byte: key order of data and metadata is kept', async () => {
    const store = openStore(newSchema('bytes'));
    const streamId = `bytes-${randomUUID()}`;
    const written: NewStreamEvent = {
      type: 'Ordered',
      data: { zebra: 1, apple: { y: [3, { b: 1, a: 2 }], x: null }, '10': 'ten', '2': 'two' },
      metadata: {
        schemaVersion: 1,
        eventId: randomUUID(),
        at: '2025-01-02T03:04:05.678Z',
        extra: { z: 1, a: 2 },
      } as NewStreamEvent['metadata'],
    };
    await store.appendToStream(streamId, [written], { expectedRevision: 'noStream' });
    const [read] = await store.readStream(streamId);
    expect(JSON.stringify(read)).toBe(
      JSON.stringify({ ...written, metadata: { ...written.metadata, revision: 0 } }),
    );
    const [live] = await firstValueFrom(
      store.subscribeToStream(streamId).pipe(take(1), toArray(), timeout(5_000)),
    );
    expect(JSON.stringify(live)).toBe(JSON.stringify(read));
  });

  it('delivers to a subscriber of one store what another store (another process) appends', async () => {
    const schema = newSchema('notify');
    const writer = openStore(schema);
    const reader = openStore(schema);
    const streamId = `notify-${randomUUID()}`;
    await writer.appendToStream(streamId, [event('a')], { expectedRevision: 'noStream' });
    const received = firstValueFrom(
      reader.subscribeToStream(streamId).pipe(take(4), toArray(), timeout(5_000)),
    );
    await sleep(50);
    await writer.appendToStream(streamId, [event('b'), event('c')], { expectedRevision: 0 });
    await writer.appendToStream(streamId, [event('d')], { expectedRevision: 2 });
    expect((await received).map((e) => e.metadata.revision)).toEqual([0, 1, 2, 3]);
  });

  it('releases its LISTEN connection when the last subscription stops', async () => {
    const schema = newSchema('release');
    const store = openStore(schema);
    const streamId = `release-${randomUUID()}`;
    await store.appendToStream(streamId, [event('a')], { expectedRevision: 'noStream' });
    const listening = (): Promise<number> =>
      withClient(async (client) => {
        const result = await client.query(
          'SELECT 1 FROM pg_stat_activity WHERE query = $1 AND pid <> pg_backend_pid()',
          [`LISTEN "${schema}_appended"`],
        );
        return result.rowCount ?? 0;
      });
    const seen: number[] = [];
    const first = store.subscribeToStream(streamId).subscribe((e) => {
      seen.push(e.metadata.revision);
    });
    const second = store.subscribeToStream(`${streamId}-other`).subscribe(() => undefined);
    await eventually(async () => seen.length === 1 && (await listening()) === 1, 'it listens');
    expect(countPostgresSubscriptions(store)).toBe(2);
    first.unsubscribe();
    expect(countPostgresSubscriptions(store)).toBe(1);
    expect(await listening()).toBe(1);
    second.unsubscribe();
    expect(countPostgresSubscriptions(store)).toBe(0);
    await eventually(async () => (await listening()) === 0, 'the LISTEN connection is closed');
    await store.appendToStream(streamId, [event('b')], { expectedRevision: 0 });
    await sleep(100);
    expect(seen).toEqual([0]);
  });

  it('fails live subscriptions when the store is closed', async () => {
    const store = createPostgresEventStore({
      connectionString: connectionString(),
      schema: newSchema('closed'),
    });
    const errors: unknown[] = [];
    store.subscribeToStream('waiting').subscribe({ error: (error: unknown) => errors.push(error) });
    await eventually(() => Promise.resolve(countPostgresSubscriptions(store) === 1), 'subscribed');
    await sleep(100);
    await store.close();
    expect(errors).toEqual([expect.objectContaining({ code: 'closed' })]);
  });

  it('refuses what PostgreSQL text cannot hold exactly, storing nothing', async () => {
    const store = openStore(newSchema('text'));
    await expect(
      store.appendToStream('lone-\uD800-surrogate', [event('a')], { expectedRevision: 'any' }),
    ).rejects.toMatchObject({ code: 'invalidStreamId' });
    const badType = { ...event('b'), type: 'with\u0000nul' };
    await expect(
      store.appendToStream('fine', [event('a'), badType], { expectedRevision: 'any' }),
    ).rejects.toMatchObject({
      code: 'invalidEvent',
      message: expect.stringContaining('events[1].type') as unknown,
    });
    const data = { nul: 'a\u0000b', lone: '\uDC00' };
    await store.appendToStream('fine', [event('c', data)], { expectedRevision: 'noStream' });
    expect((await store.readStream('fine')).map((e) => e.data)).toEqual([data]);
    expect(await store.listStreams()).toEqual(['fine']);
  });
});
