import { randomBytes, randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { Client, escapeIdentifier } from 'pg';
import { firstValueFrom, toArray } from 'rxjs';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  countPostgresSubscriptions,
  createPostgresEventStore,
  type PostgresEventStore,
} from './createPostgresEventStore.js';
import { sleep } from '../conformance/conformanceHelpers.js';
import { eventually } from '../test/eventually.js';
import { labelledEvent as event } from '../test/labelledEvent.js';
import { rejection } from '../test/rejection.js';

// Store faults in one process: connections the server kills (pg_terminate_backend, which is what a
// restart does to each of them) and a server that cannot be reached. The restart itself, with the
// agent in another process, is in ../test/postgresRestart.test.ts.

const url = process.env['AGENTLOG_POSTGRES_URL'];
const skipReason =
  url === undefined || url === ''
    ? 'AGENTLOG_POSTGRES_URL is not set; start a server with `eval "$(scripts/postgres.sh start)"`'
    : undefined;
const runId = randomBytes(4).toString('hex');
const schemas: string[] = [];
const opened: PostgresEventStore[] = [];

function connectionString(): string {
  if (url === undefined || url === '') throw new Error('AGENTLOG_POSTGRES_URL is not set');
  return url;
}

function openStore(label: string): { store: PostgresEventStore; schema: string } {
  const schema = `agentlog_faults_${runId}_${label}`;
  schemas.push(schema);
  const store = createPostgresEventStore({ connectionString: connectionString(), schema });
  opened.push(store);
  return { store, schema };
}

async function withClient<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: connectionString() });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

afterAll(async () => {
  await Promise.all(opened.map((store) => store.close().catch(() => undefined)));
  if (skipReason !== undefined) return;
  await withClient(async (client) => {
    for (const schema of schemas)
      await client.query(`DROP SCHEMA IF EXISTS ${escapeIdentifier(schema)} CASCADE`);
  });
});

/** What reached the process as an uncaught exception or an unhandled rejection during a test. */
const escaped: unknown[] = [];
const onEscaped = (error: unknown): void => {
  escaped.push(error);
};
beforeEach(() => {
  escaped.length = 0;
  process.on('uncaughtException', onEscaped);
  process.on('unhandledRejection', onEscaped);
});
afterEach(() => {
  process.off('uncaughtException', onEscaped);
  process.off('unhandledRejection', onEscaped);
});

/** A loopback port nothing listens on. */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => {
        if (address === null || typeof address === 'string') reject(new Error('no port'));
        else resolve(address.port);
      });
    });
  });
}

/** Terminates the server processes of the connections whose current or last query matches. */
function terminate(client: Client, where: string, values: unknown[]): Promise<number> {
  return client
    .query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND ${where}`,
      values,
    )
    .then((result) => result.rowCount ?? 0);
}

describe('PostgreSQL store faults reach the caller as storeUnavailable (RES-5)', () => {
  it('RES-5 PostgreSQL: a server that cannot be reached gives storeUnavailable for append, read, listStreams and subscribe, naming the store and the stream, with the driver error as cause', async () => {
    const port = await closedPort();
    const store = createPostgresEventStore({
      connectionString: `postgres://postgres:secret@127.0.0.1:${port}/postgres`,
      schema: 'agentlog_unreachable',
    });
    try {
      const failures = [
        await rejection(store.appendToStream('s', [event('a')], { expectedRevision: 'any' })),
        await rejection(store.readStream('s')),
        await rejection(store.listStreams()),
        await rejection(firstValueFrom(store.subscribeToStream('s').pipe(toArray()))),
      ];
      const where = `PostgreSQL schema agentlog_unreachable on 127.0.0.1:${port}/postgres`;
      const refused = `connect ECONNREFUSED 127.0.0.1:${port}`;
      expect(failures.map((failure) => failure.message)).toEqual([
        `${where}, stream s: the append failed: ${refused}`,
        `${where}, stream s: the read failed: ${refused}`,
        `${where}: listing the streams failed: ${refused}`,
        `${where}, stream s: the subscription failed: ${refused}`,
      ]);
      for (const failure of failures) {
        expect(failure).toMatchObject({ name: 'AgentError', code: 'storeUnavailable' });
        expect(failure.cause).toMatchObject({ code: 'ECONNREFUSED' });
        expect(failure.message).not.toContain('secret');
      }
      expect(escaped).toEqual([]);
    } finally {
      await store.close();
    }
  });
});

const specifics = skipReason === undefined ? describe : describe.skip;
specifics(
  skipReason === undefined
    ? 'PostgreSQL store faults on a live server'
    : `PostgreSQL store faults on a live server (skipped: ${skipReason})`,
  () => {
    it('RES-5 PostgreSQL: a connection killed in the middle of an append is storeUnavailable with the driver error as cause, never a crash; nothing of it is stored and the next append succeeds', async () => {
      const { store, schema } = openStore('midappend');
      const streamId = `mid-${randomUUID()}`;
      await store.appendToStream(streamId, [event('first')], { expectedRevision: 'noStream' });
      await withClient(async (locker) => {
        await withClient(async (watcher) => {
          await locker.query('BEGIN');
          await locker.query(
            `LOCK TABLE ${escapeIdentifier(schema)}.events IN SHARE ROW EXCLUSIVE MODE`,
          );
          const append = rejection(
            store.appendToStream(streamId, [event('lost')], { expectedRevision: 0 }),
          );
          const insert = [`INSERT INTO "${schema}".events%`];
          await eventually(
            async () =>
              (
                await watcher.query(
                  `SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE $1`,
                  insert,
                )
              ).rowCount === 1,
            'the append waits for the lock',
          );
          expect(await terminate(watcher, `query LIKE $1`, insert)).toBe(1);
          const error = await append;
          await locker.query('ROLLBACK');
          expect(error).toMatchObject({ name: 'AgentError', code: 'storeUnavailable' });
          expect(error.message).toMatch(
            new RegExp(
              `^PostgreSQL schema ${schema} on .*, stream ${streamId}: the append failed: terminating connection due to administrator command \\(57P01\\)$`,
            ),
          );
          expect(error.cause).toMatchObject({ code: '57P01' });
        });
      });
      await sleep(100);
      expect(escaped).toEqual([]);
      expect((await store.readStream(streamId)).map((e) => e.data)).toEqual([{ label: 'first' }]);
      await store.appendToStream(streamId, [event('second')], { expectedRevision: 0 });
      expect((await store.readStream(streamId)).map((e) => e.data)).toEqual([
        { label: 'first' },
        { label: 'second' },
      ]);
    });

    it('RES-5 PostgreSQL: a connection lost while the append commits says it may or may not be stored; appending the same events again stores them once', async () => {
      const { store, schema } = openStore('commit');
      const streamId = `commit-${randomUUID()}`;
      const table = `${escapeIdentifier(schema)}.events`;
      await store.listStreams();
      // A deferred trigger makes the COMMIT itself wait, so the connection can be killed in it.
      await withClient(async (client) => {
        await client.query(
          `CREATE FUNCTION ${escapeIdentifier(schema)}.slow_commit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(30); RETURN NULL; END $$`,
        );
        await client.query(
          `CREATE CONSTRAINT TRIGGER slow_commit AFTER INSERT ON ${table} DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION ${escapeIdentifier(schema)}.slow_commit()`,
        );
      });
      const events = [event('a'), event('b')];
      const append = rejection(
        store.appendToStream(streamId, events, { expectedRevision: 'noStream' }),
      );
      const error = await withClient(async (watcher) => {
        await eventually(
          async () =>
            (
              await watcher.query(
                `SELECT 1 FROM pg_stat_activity WHERE wait_event = 'PgSleep' AND query = 'COMMIT'`,
              )
            ).rowCount === 1,
          'the append commits',
        );
        expect(await terminate(watcher, `wait_event = 'PgSleep' AND query = 'COMMIT'`, [])).toBe(1);
        return append;
      });
      expect(error).toMatchObject({ code: 'storeUnavailable' });
      expect(error.message).toContain(
        `stream ${streamId}: the connection failed while the append committed, so it may or may not be stored (appending the same events again is safe: the ones already stored are skipped by their event id): terminating connection due to administrator command (57P01)`,
      );
      expect(error.cause).toMatchObject({ code: '57P01' });
      await withClient((client) => client.query(`DROP TRIGGER slow_commit ON ${table}`));
      await store.appendToStream(streamId, events, { expectedRevision: 'noStream' });
      expect(
        await store.appendToStream(streamId, events, { expectedRevision: 'noStream' }),
      ).toEqual({ nextExpectedRevision: 1 });
      expect((await store.readStream(streamId)).map((e) => e.data)).toEqual([
        { label: 'a' },
        { label: 'b' },
      ]);
      expect(escaped).toEqual([]);
    });

    it('RES-5 PostgreSQL: idle pooled connections killed by the server do not crash the process; the next append opens new ones', async () => {
      const { store, schema } = openStore('idle');
      const streamId = `idle-${randomUUID()}`;
      // Several appends at once leave several idle connections in the pool.
      await Promise.all(
        Array.from({ length: 4 }, (_, n) =>
          store.appendToStream(`${streamId}-${n}`, [event(`e${n}`)], {
            expectedRevision: 'noStream',
          }),
        ),
      );
      // Reads at once, so that the last query of each of those connections names the schema.
      await Promise.all(Array.from({ length: 4 }, (_, n) => store.readStream(`${streamId}-${n}`)));
      const killed = await withClient((client) =>
        terminate(client, `state = 'idle' AND query LIKE $1`, [`%"${schema}"%`]),
      );
      expect(killed).toBeGreaterThan(1);
      await sleep(200);
      expect(escaped).toEqual([]);
      await store.appendToStream(streamId, [event('after')], { expectedRevision: 'noStream' });
      expect(await store.readStream(streamId)).toHaveLength(1);
    });

    it('RES-5 PostgreSQL: a killed LISTEN connection ends live subscriptions with storeUnavailable, never a crash; a new subscription listens again', async () => {
      const { store, schema } = openStore('listen');
      const streamId = `listen-${randomUUID()}`;
      await store.appendToStream(streamId, [event('a')], { expectedRevision: 'noStream' });
      const received: unknown[] = [];
      const ended = new Promise<unknown>((resolve) => {
        store.subscribeToStream(streamId).subscribe({
          next: (e) => received.push(e.data),
          error: resolve,
        });
      });
      const listen = [`LISTEN "${schema}_appended"`];
      await eventually(
        async () =>
          received.length === 1 &&
          (await withClient((client) => terminate(client, 'query = $1', listen))) === 1,
        'the LISTEN connection is killed',
      );
      const error = (await ended) as Error;
      expect(error).toMatchObject({ name: 'AgentError', code: 'storeUnavailable' });
      expect(error.message).toMatch(
        new RegExp(
          `, stream ${streamId}: the subscription lost its LISTEN connection: terminating connection due to administrator command \\(57P01\\)$`,
        ),
      );
      expect(error.cause).toMatchObject({ code: '57P01' });
      expect(countPostgresSubscriptions(store)).toBe(0);
      await sleep(100);
      expect(escaped).toEqual([]);

      const again = firstValueFrom(store.subscribeToStream(streamId, { fromRevision: 1 }));
      await eventually(async () => {
        const result = await withClient((client) =>
          client.query('SELECT 1 FROM pg_stat_activity WHERE query = $1', listen),
        );
        return result.rowCount === 1;
      }, 'it listens again');
      await store.appendToStream(streamId, [event('b')], { expectedRevision: 0 });
      expect((await again).data).toEqual({ label: 'b' });
    });

    it('RES-3 PostgreSQL: conflicts and invalid events stay what they are, not storeUnavailable', async () => {
      const { store } = openStore('kept');
      const streamId = `kept-${randomUUID()}`;
      await store.appendToStream(streamId, [event('a')], { expectedRevision: 'noStream' });
      await expect(
        store.appendToStream(streamId, [event('b')], { expectedRevision: 'noStream' }),
      ).rejects.toMatchObject({ name: 'ConcurrencyError', code: 'concurrency' });
      await expect(
        store.appendToStream(streamId, [{ ...event('c'), type: '' }], { expectedRevision: 0 }),
      ).rejects.toMatchObject({ code: 'invalidEvent' });
    });
  },
);

specifics(
  skipReason === undefined
    ? 'PostgreSQL bad data names the schema, the stream and the revision'
    : `PostgreSQL bad data names the schema, the stream and the revision (skipped: ${skipReason})`,
  () => {
    it('EVT-4 PostgreSQL: a deleted row is a revision gap naming the store, the stream and the missing revision, on every kind of read', async () => {
      const { store, schema } = openStore('gap');
      const streamId = `gap-${randomUUID()}`;
      await store.appendToStream(
        streamId,
        Array.from({ length: 7 }, (_, n) => event(`e${n}`)),
        { expectedRevision: 'noStream' },
      );
      const table = `${escapeIdentifier(schema)}.events`;
      await withClient((client) =>
        client.query(`DELETE FROM ${table} WHERE stream_id = $1 AND revision = 4`, [streamId]),
      );
      const of = `stream ${streamId} of PostgreSQL schema ${schema} on `;
      const gap = (message: string) => ({
        name: 'AgentlogError',
        code: 'revisionGap',
        message: expect.stringMatching(new RegExp(`^${of}\\S+: ${message}$`)) as unknown,
      });
      const jump = 'revision 4 is missing: the events jump from 3 to 5';
      await expect(store.readStream(streamId)).rejects.toMatchObject(gap(jump));
      await expect(store.readStream(streamId, { fromRevision: 4 })).rejects.toMatchObject(
        gap('revision 4 is missing: a read from revision 4 finds revision 5 first'),
      );
      await expect(store.readStream(streamId, { direction: 'backwards' })).rejects.toMatchObject(
        gap(jump),
      );
      await expect(
        store.readStream(streamId, { direction: 'backwards', fromRevision: 4, maxCount: 1 }),
      ).rejects.toMatchObject(gap(jump));
      await expect(
        firstValueFrom(store.subscribeToStream(streamId).pipe(toArray())),
      ).rejects.toMatchObject(gap(jump));
      expect(await store.readStream(streamId, { maxCount: 4 })).toHaveLength(4);
      expect(await store.readStream(streamId, { fromRevision: 7 })).toEqual([]);
      expect(
        (
          await store.readStream(streamId, {
            direction: 'backwards',
            fromRevision: 50,
            maxCount: 2,
          })
        ).map((e) => e.metadata.revision),
      ).toEqual([6, 5]);
      await withClient((client) =>
        client.query(`DELETE FROM ${table} WHERE stream_id = $1 AND revision = 0`, [streamId]),
      );
      await expect(store.readStream(streamId, { maxCount: 2 })).rejects.toMatchObject(
        gap('revision 0 is missing: the stream starts at revision 1'),
      );
    });

    it('EVT-4 PostgreSQL: a row whose metadata is not a JSON object is an InvalidEventError naming the store, the stream and the revision', async () => {
      const { store, schema } = openStore('metadata');
      const streamId = `metadata-${randomUUID()}`;
      await store.appendToStream(streamId, [event('a'), event('b')], {
        expectedRevision: 'noStream',
      });
      await withClient((client) =>
        client.query(
          `UPDATE ${escapeIdentifier(schema)}.events SET metadata = '[1, 2]' WHERE stream_id = $1 AND revision = 1`,
          [streamId],
        ),
      );
      const error = await rejection(store.readStream(streamId));
      expect(error).toMatchObject({
        name: 'InvalidEventError',
        code: 'invalidEvent',
        eventType: 'Labelled',
        revision: 1,
      });
      expect(error.message).toMatch(
        new RegExp(
          `^event Labelled at revision 1 is invalid: stream ${streamId} of PostgreSQL schema ${schema} on \\S+: its metadata column holds \\[1, 2\\], not a JSON object$`,
        ),
      );
    });
  },
);
