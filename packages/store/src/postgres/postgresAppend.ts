import type { Pool, PoolClient } from 'pg';
import { AgentlogError, ConcurrencyError, InvalidEventError } from '@agentlog/core';
import {
  assertValidExpectedRevision,
  assertValidNewEvents,
  assertValidStreamId,
  decideAppend,
} from '@agentlog/core/store-kit';
import type { AppendOptions, AppendResult, ExpectedRevision, NewStreamEvent } from '@agentlog/core';
import {
  assertFenceOptions,
  assertValidWorkEntry,
  judgeFence,
  needsWorkNow,
} from '@agentlog/core/store-kit';
import { asStoreError, guardStore, storeUnavailable, streamWhere } from '../storeErrors.js';
import { inTransaction, UncertainCommit, withPooledClient } from './postgresClient.js';
import { lockRun, locksRun } from './postgresRunLock.js';
import type { PostgresNames } from './postgresSchema.js';
import { writeWorkEntry } from './postgresWorkEntry.js';
import type { PostgresDurability, PostgresStoreContext } from './postgresStoreContext.js';

/**
 * How often an append whose transaction collided with a concurrent one is re-evaluated. Every
 * collision means another append committed, so this only bounds pathological contention.
 */
const maxAppendAttempts = 1_000;

/** 23505 unique_violation, 40001 serialization_failure, 40P01 deadlock_detected. */
const retryableCodes = new Set(['23505', '40001', '40P01']);

/** An event as the insert takes it: serialised before the transaction starts. */
interface SerializedEvent {
  readonly eventId: string;
  readonly type: string;
  readonly data: string;
  readonly metadata: string;
}

/**
 * Appends `events` to a stream of a PostgreSQL store (its `appendToStream`), in one transaction,
 * with the stream's work-index entry when `options.work` is given (SPEC WRK-6), its claim or
 * fencing token judged by `judgeFence` on the stream's work row, locked for the transaction and
 * on the server's clock (SPEC WRK-4, WRK-8). A collision with a concurrent append is retried
 * against the new state of the stream.
 */
export async function postgresAppend(
  context: PostgresStoreContext,
  streamId: string,
  events: readonly NewStreamEvent[],
  options: AppendOptions | undefined,
): Promise<AppendResult> {
  const expectedRevision = options?.expectedRevision;
  assertValidStreamId(streamId);
  assertPostgresText(streamId);
  assertValidExpectedRevision(expectedRevision);
  assertValidNewEvents(events);
  if (options?.work !== undefined) assertValidWorkEntry(streamId, options.work);
  if (options !== undefined) assertFenceOptions(streamId, options);
  const serialized = events.map((event, index) => serialize(event, index));
  const where = streamWhere(context.label, streamId);
  await guardStore(where, 'the append failed', context.ready);
  const append: Append = {
    streamId,
    events: serialized,
    expectedRevision,
    options: options ?? { expectedRevision },
    locks: locksRun(events, options),
    judged: events,
  };
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await appendOnce(context, append);
    } catch (error) {
      if (error instanceof UncertainCommit) {
        throw storeUnavailable(
          where,
          'the connection failed while the append committed, so it may or may not be stored (appending the same events again is safe: the ones already stored are skipped by their event id)',
          error.cause,
        );
      }
      if (!isRetryable(error)) throw asStoreError(error, where, 'the append failed');
      if (attempt >= maxAppendAttempts) {
        const actual = await guardStore(where, 'the append failed', () =>
          lastRevision(context.pool, context.names, streamId),
        );
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

/** One append as `appendOnce` tries it. */
interface Append {
  readonly streamId: string;
  readonly events: readonly SerializedEvent[];
  readonly expectedRevision: ExpectedRevision;
  readonly options: AppendOptions;
  /** Whether it locks the stream's run first (`locksRun`). */
  readonly locks: boolean;
  /** The events as offered, for `judgeFence`. */
  readonly judged: readonly NewStreamEvent[];
}

/**
 * One try, in one transaction: lock the stream's run when the append is judged on it, read the
 * stream's state, check the expectation and the fence, insert. Throws a retryable error when the
 * insert collides with an append that committed meanwhile.
 */
function appendOnce(context: PostgresStoreContext, append: Append): Promise<AppendResult> {
  const { pool, names } = context;
  const { streamId, events, expectedRevision, options } = append;
  const { work } = options;
  const begin = beginStatement(context.durability, options.durable === true);
  return transaction(pool, begin, async (client) => {
    // Locked before the revision is read: an append that waited for the lock sees what the
    // holder wrote.
    const run = append.locks ? await lockRun(client, names, streamId) : undefined;
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

    const decision = decideAppend(
      { streamId, last, revisionOf: (id) => known.get(id) },
      events.map((event) => event.eventId),
      expectedRevision,
    );
    if (decision.kind === 'alreadyStored')
      return { nextExpectedRevision: decision.nextExpectedRevision };
    // The run's fence is judged before the revision: a stale holder learns it lost the run.
    const claims =
      run !== undefined && judgeFence(streamId, run.entry, append.judged, options, run.now);
    if (decision.kind === 'conflict') throw decision.error;
    const fresh = decision.indexes.map((index) => events[index] as SerializedEvent);

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
        decision.firstRevision,
        fresh.map((event) => event.eventId),
        fresh.map((event) => event.type),
        fresh.map((event) => event.data),
        fresh.map((event) => event.metadata),
      ],
    );
    if (work !== undefined)
      await writeWorkEntry(client, names, streamId, work, claims ? decision.firstRevision : null);
    // Delivered to listeners when the transaction commits, never for a rolled-back append. An
    // entry that makes the stream need work wakes the workers too (a lapsed lease cannot notify:
    // workers poll for those).
    await client.query('SELECT pg_notify($1, $2), CASE WHEN $4 THEN pg_notify($3, $2) END', [
      names.channel,
      streamId,
      names.workChannel,
      work !== undefined && needsWorkNow(work.status),
    ]);
    return { nextExpectedRevision: decision.nextExpectedRevision };
  });
}

/**
 * The statement that opens an append's transaction. With `'sideEffects'`, an append that is not
 * `durable` commits with `synchronous_commit = off` (in the same round trip as `BEGIN`): it does
 * not wait for its WAL flush. A later durable commit flushes the WAL up to itself, so after a
 * crash of the server the stream still holds every append up to the last durable one, the same
 * guarantee as SQLite's `'sideEffects'`. Otherwise the server's `synchronous_commit` applies.
 */
export function beginStatement(durability: PostgresDurability, durable: boolean): string {
  return durability === 'sideEffects' && !durable
    ? 'BEGIN; SET LOCAL synchronous_commit TO OFF'
    : 'BEGIN';
}

/**
 * Runs `work` in a transaction: committed when it returns, rolled back when it throws; throws
 * `UncertainCommit` when the connection failed during the commit.
 */
function transaction<T>(
  pool: Pool,
  begin: string,
  work: (client: PoolClient) => Promise<T>,
): Promise<T> {
  return withPooledClient(pool, (client, session) =>
    inTransaction(client, session, () => work(client), begin),
  );
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

/** Throws unless `text` survives a round trip through a PostgreSQL `text` column unchanged. */
export function assertPostgresText(streamId: string): void {
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
