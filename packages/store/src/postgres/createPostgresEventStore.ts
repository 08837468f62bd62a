import { Pool, type PoolClient } from 'pg';
import { Observable } from 'rxjs';
import {
  AgentlogError,
  assertValidNewEvents,
  assertValidStreamId,
  ConcurrencyError,
  InvalidEventError,
} from '@agentlog/core';
import type {
  AppendResult,
  EventStore,
  ExpectedRevision,
  NewStreamEvent,
  ReadStreamOptions,
  StreamEvent,
} from '@agentlog/core';
import { createPostgresListener, type PostgresListener } from './postgresListener.js';
import { ensurePostgresSchema, postgresNames, type PostgresNames } from './postgresSchema.js';

/** Options of `createPostgresEventStore`. */
export interface PostgresEventStoreOptions {
  /** A libpq connection string, e.g. `postgres://user:password@host:5432/database`. */
  readonly connectionString: string;
  /**
   * The PostgreSQL schema holding the store's tables (default `agentlog`): lower-case letters,
   * digits and `_`, at most 48 characters. Stores on different schemas do not see each other.
   */
  readonly schema?: string;
}

/** A PostgreSQL event store; `close()` ends its connections. */
export interface PostgresEventStore extends EventStore {
  /**
   * Stops the live subscriptions (with an `AgentlogError('closed')`) and ends the pool; calling it
   * again does nothing more.
   */
  close(): Promise<void>;
}

/** How many events a subscription reads per query while it catches up. */
const subscriptionPageSize = 500;
/**
 * How often an append whose transaction collided with a concurrent one is re-evaluated. Every
 * collision means another append committed, so this only bounds pathological contention.
 */
const maxAppendAttempts = 1_000;

/** 23505 unique_violation, 40001 serialization_failure, 40P01 deadlock_detected. */
const retryableCodes = new Set(['23505', '40001', '40P01']);

/**
 * Creates an event store on PostgreSQL (a `pg.Pool`). It follows the `EventStore` contract exactly
 * like the in-memory store: revisions from 0, expected revisions (SPEC RES-3), idempotence by
 * `eventId` (a retried append succeeds whatever it expects), catch-up subscriptions.
 *
 * - It creates its schema, tables and indexes on first use (`CREATE ... IF NOT EXISTS` under an
 *   advisory lock, so processes starting together do not clash), and refuses with
 *   `AgentlogError('newerSchema')` a schema written by a newer version of this package.
 * - Event data and metadata are kept in `json` columns (not `jsonb`, which reorders keys), so an
 *   event reads back exactly as it was written.
 * - An append is one transaction. Concurrent appends to one stream collide on the unique
 *   `(stream_id, revision)` index; the loser re-evaluates its expectation against the new state,
 *   so a stale expected revision fails with `ConcurrencyError` (with the actual revision) and
 *   `'any'` simply lands after the winner. Nothing of a failed append is stored.
 * - Subscriptions read what is stored, then follow appends through LISTEN/NOTIFY on one dedicated
 *   connection per store (opened while at least one subscription is live), re-reading from the last
 *   delivered revision on each notification: no gap, no duplicate.
 * - Needs a UTF8 database. Besides the shared stream id and event rules, it refuses what
 *   PostgreSQL `text` cannot hold exactly: U+0000 and unpaired surrogates in stream ids, event
 *   types and event ids (data and metadata may contain anything JSON can).
 */
export function createPostgresEventStore(options: PostgresEventStoreOptions): PostgresEventStore {
  const names = postgresNames(options.schema);
  const pool = new Pool({ connectionString: options.connectionString });
  // An idle client whose connection broke is dropped by the pool; the next query opens a new one.
  pool.on('error', () => undefined);
  const listener = createPostgresListener(options.connectionString, names.channel);

  let schemaReady: Promise<void> | undefined;
  const ready = (): Promise<void> =>
    (schemaReady ??= ensurePostgresSchema(pool, names).catch((error: unknown) => {
      schemaReady = undefined;
      throw error;
    }));

  let closing: Promise<void> | undefined;
  const context: StoreContext = { pool, names, listener, ready };
  const store: PostgresEventStore = {
    appendToStream: (streamId, events, appendOptions) =>
      append(context, streamId, events, appendOptions?.expectedRevision),
    readStream: (streamId, readOptions) => read(context, streamId, readOptions ?? {}),
    subscribeToStream: (streamId, subscribeOptions) =>
      subscribe(context, streamId, subscribeOptions?.fromRevision),
    listStreams: () => list(context),
    close: () =>
      (closing ??= (async () => {
        await listener.close();
        await pool.end();
      })()),
  };
  listeners.set(store, listener);
  return store;
}

const listeners = new WeakMap<EventStore, PostgresListener>();

/**
 * Test-only introspection: how many live subscriptions a PostgreSQL store is feeding. Returns 0 for
 * a store that `createPostgresEventStore` did not make.
 */
export function countPostgresSubscriptions(store: EventStore): number {
  return listeners.get(store)?.size ?? 0;
}

interface StoreContext {
  readonly pool: Pool;
  readonly names: PostgresNames;
  readonly listener: PostgresListener;
  readonly ready: () => Promise<void>;
}

interface EventRow {
  readonly revision: string;
  readonly type: string;
  readonly data: string;
  readonly metadata: string;
}

/** An event as the insert takes it: serialised before the transaction starts. */
interface SerializedEvent {
  readonly eventId: string;
  readonly type: string;
  readonly data: string;
  readonly metadata: string;
}

async function append(
  context: StoreContext,
  streamId: string,
  events: readonly NewStreamEvent[],
  expectedRevision: ExpectedRevision | undefined,
): Promise<AppendResult> {
  assertValidStreamId(streamId);
  assertPostgresText(streamId);
  assertValidExpectedRevision(expectedRevision);
  assertValidNewEvents(events);
  const serialized = events.map((event, index) => serialize(event, index));
  await context.ready();
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await appendOnce(context, streamId, serialized, expectedRevision);
    } catch (error) {
      if (!isRetryable(error)) throw error;
      if (attempt >= maxAppendAttempts) {
        const actual = await lastRevision(context.pool, context.names, streamId);
        throw new ConcurrencyError(streamId, expectedRevision, actual);
      }
    }
  }
}

function serialize(event: NewStreamEvent, index: number): SerializedEvent {
  const { type } = event;
  const { eventId } = event.metadata;
  const problem =
    textProblem(type, `events[${index}].type`) ??
    textProblem(eventId, `events[${index}].metadata.eventId`);
  if (problem !== undefined) throw new InvalidEventError(type, undefined, problem);
  return {
    eventId,
    type,
    data: JSON.stringify(event.data),
    metadata: JSON.stringify(event.metadata),
  };
}

/**
 * One try, in one transaction: read the stream's state, check the expectation, insert. Throws a
 * retryable error when the insert collides with an append that committed meanwhile.
 */
function appendOnce(
  context: StoreContext,
  streamId: string,
  events: readonly SerializedEvent[],
  expectedRevision: ExpectedRevision,
): Promise<AppendResult> {
  const { pool, names } = context;
  return transaction(pool, async (client) => {
    const last = await lastRevision(client, names, streamId);
    const ids = [...new Set(events.map((event) => event.eventId))];
    const known = new Map<string, number>();
    if (ids.length > 0 && last !== 'noStream') {
      const found = await client.query<{ event_id: string; revision: string }>(
        `SELECT event_id, revision FROM ${names.events} WHERE stream_id = $1 AND event_id = ANY($2::text[])`,
        [streamId, ids],
      );
      for (const row of found.rows) known.set(row.event_id, Number(row.revision));
    }

    // A retry of an append that was already stored succeeds whatever it expects (KurrentDB).
    if (last !== 'noStream' && isStoredRetry(known, events)) return { nextExpectedRevision: last };
    if (!satisfies(expectedRevision, last))
      throw new ConcurrencyError(streamId, expectedRevision, last);

    const seen = new Set<string>();
    const fresh = events.filter((event) => {
      if (seen.has(event.eventId) || known.has(event.eventId)) return false;
      seen.add(event.eventId);
      return true;
    });
    const current = last === 'noStream' ? -1 : last;
    if (fresh.length === 0) return { nextExpectedRevision: current };

    // Under READ COMMITTED the reads above do not lock anything: the unique (stream_id, revision)
    // index is the real check. An append that committed since makes this insert fail with 23505
    // (waiting for it first if it is still in flight), and the caller tries again.
    await client.query(
      `INSERT INTO ${names.events} (stream_id, revision, event_id, type, data, metadata)
       SELECT $1, $2::bigint + t.ord - 1, t.event_id, t.type, t.data::json, t.metadata::json
       FROM unnest($3::text[], $4::text[], $5::text[], $6::text[])
         WITH ORDINALITY AS t(event_id, type, data, metadata, ord)
       ORDER BY t.ord`,
      [
        streamId,
        current + 1,
        fresh.map((event) => event.eventId),
        fresh.map((event) => event.type),
        fresh.map((event) => event.data),
        fresh.map((event) => event.metadata),
      ],
    );
    // Delivered to listeners when the transaction commits, never for a rolled-back append.
    await client.query('SELECT pg_notify($1, $2)', [names.channel, streamId]);
    return { nextExpectedRevision: current + fresh.length };
  });
}

/** Runs `work` in a transaction: committed when it returns, rolled back when it throws. */
async function transaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    try {
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch((rollbackError: unknown) => {
        broken = rollbackError instanceof Error ? rollbackError : new Error(String(rollbackError));
      });
      throw error;
    }
  } finally {
    client.release(broken);
  }
}

async function lastRevision(
  queryable: Pool | PoolClient,
  names: PostgresNames,
  streamId: string,
): Promise<number | 'noStream'> {
  const result = await queryable.query<{ last: string | null }>(
    `SELECT max(revision) AS last FROM ${names.events} WHERE stream_id = $1`,
    [streamId],
  );
  const last = result.rows[0]?.last ?? null;
  return last === null ? 'noStream' : Number(last);
}

function isRetryable(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && retryableCodes.has(code);
}

/** True when every event is stored already, in the same order at consecutive revisions. */
function isStoredRetry(known: ReadonlyMap<string, number>, events: readonly SerializedEvent[]) {
  const first = events[0];
  if (first === undefined) return false;
  const start = known.get(first.eventId);
  if (start === undefined) return false;
  return events.every((event, index) => known.get(event.eventId) === start + index);
}

function satisfies(expected: ExpectedRevision, actual: number | 'noStream'): boolean {
  switch (expected) {
    case 'any':
      return true;
    case 'noStream':
      return actual === 'noStream';
    case 'streamExists':
      return actual !== 'noStream';
    default:
      return actual === expected;
  }
}

async function read(
  context: StoreContext,
  streamId: string,
  options: ReadStreamOptions,
): Promise<StreamEvent[]> {
  assertValidStreamId(streamId);
  assertPostgresText(streamId);
  assertRevisionOption('fromRevision', options.fromRevision);
  assertRevisionOption('maxCount', options.maxCount);
  await context.ready();
  const { events } = context.names;
  const columns = 'revision, type, data::text AS data, metadata::text AS metadata';
  const result =
    options.direction === 'backwards'
      ? await context.pool.query<EventRow>(
          `SELECT ${columns} FROM ${events}
           WHERE stream_id = $1 AND ($2::bigint IS NULL OR revision <= $2::bigint)
           ORDER BY revision DESC LIMIT $3`,
          [streamId, options.fromRevision ?? null, options.maxCount ?? null],
        )
      : await context.pool.query<EventRow>(
          `SELECT ${columns} FROM ${events}
           WHERE stream_id = $1 AND revision >= $2
           ORDER BY revision LIMIT $3`,
          [streamId, options.fromRevision ?? 0, options.maxCount ?? null],
        );
  return result.rows.map(toStreamEvent);
}

function toStreamEvent(row: EventRow): StreamEvent {
  const metadata = JSON.parse(row.metadata) as Omit<StreamEvent['metadata'], 'revision'>;
  return {
    type: row.type,
    data: JSON.parse(row.data) as unknown,
    metadata: { ...metadata, revision: Number(row.revision) },
  };
}

async function list(context: StoreContext): Promise<string[]> {
  await context.ready();
  const result = await context.pool.query<{ stream_id: string }>(
    `SELECT stream_id FROM ${context.names.events} WHERE revision = 0 ORDER BY position`,
  );
  return result.rows.map((row) => row.stream_id);
}

function subscribe(
  context: StoreContext,
  streamId: string,
  fromRevision: number | undefined,
): Observable<StreamEvent> {
  return new Observable<StreamEvent>((subscriber) => {
    // Thrown here, these reach the subscriber as an error notification.
    assertValidStreamId(streamId);
    assertPostgresText(streamId);
    assertRevisionOption('fromRevision', fromRevision);

    let next = fromRevision ?? 0;
    let pulling = false;
    let pullAgain = false;
    let unwatch: (() => void) | undefined;

    const fail = (error: unknown): void => {
      if (!subscriber.closed) subscriber.error(error);
    };
    // Catch-up and live delivery are one loop reading from the next revision to deliver; a
    // notification during a read makes it read once more. So nothing is skipped or delivered twice.
    const pull = async (): Promise<void> => {
      if (pulling) {
        pullAgain = true;
        return;
      }
      pulling = true;
      try {
        do {
          pullAgain = false;
          for (;;) {
            if (subscriber.closed) return;
            const page = await read(context, streamId, {
              fromRevision: next,
              maxCount: subscriptionPageSize,
            });
            for (const event of page) {
              if (subscriber.closed) return;
              next = event.metadata.revision + 1;
              subscriber.next(event);
            }
            if (page.length < subscriptionPageSize) break;
          }
        } while (pullAgain);
      } finally {
        pulling = false;
      }
    };
    const requestPull = (): void => {
      pull().catch(fail);
    };

    // Listen first, then catch up: an append committed in between is in the read or notified.
    context
      .ready()
      .then(() => context.listener.watch(streamId, requestPull, fail))
      .then((stop) => {
        if (subscriber.closed) {
          stop();
          return;
        }
        unwatch = stop;
        requestPull();
      })
      .catch(fail);

    return () => {
      unwatch?.();
      unwatch = undefined;
    };
  });
}

/** Throws unless `text` survives a round trip through a PostgreSQL `text` column unchanged. */
function assertPostgresText(streamId: string): void {
  const problem = textProblem(streamId, 'the stream id');
  if (problem !== undefined) {
    throw new AgentlogError('invalidStreamId', `invalid stream id for PostgreSQL: ${problem}`);
  }
}

const unpairedSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function textProblem(text: string, what: string): string | undefined {
  if (text.includes('\u0000')) return `${what} contains U+0000, which PostgreSQL text cannot hold`;
  if (unpairedSurrogate.test(text))
    return `${what} contains an unpaired surrogate, which PostgreSQL text cannot hold`;
  return undefined;
}

function assertValidExpectedRevision(expected: unknown): asserts expected is ExpectedRevision {
  if (expected === 'any' || expected === 'noStream' || expected === 'streamExists') return;
  if (typeof expected === 'number' && Number.isSafeInteger(expected) && expected >= 0) return;
  throw new RangeError(
    `expectedRevision must be a revision (an integer >= 0), 'noStream', 'streamExists' or 'any', not ${String(expected)}`,
  );
}

function assertRevisionOption(name: string, value: number | undefined): void {
  if (value === undefined) return;
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${name} must be an integer >= 0, not ${String(value)}`);
  }
}
