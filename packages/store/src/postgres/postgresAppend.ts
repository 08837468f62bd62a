import type { Pool, PoolClient } from 'pg';
import { AgentlogError, ConcurrencyError, InvalidEventError } from '@agentlog/core';
import type { AppendOptions, AppendResult, ExpectedRevision, NewStreamEvent } from '@agentlog/core';
import {
  assertFenceOptions,
  assertValidExpectedRevision,
  assertValidNewEvents,
  assertValidStreamId,
  assertValidWorkEntry,
  judgeAppend,
} from '@agentlog/core/store-kit';
import { asStoreError, guardStore, storeUnavailable, streamWhere } from '../storeErrors.js';
import {
  locksRun,
  readOfError,
  runAppendCall,
  type SerializedEvent,
} from './postgresAppendCall.js';
import { checkingCall, judgeRead, type PostgresAppend } from './postgresAppendDecision.js';
import { claimsUnderCap } from './postgresClaimCap.js';
import { UncertainCommit, withPooledClient } from './postgresClient.js';
import { inPipelinedTransaction } from './postgresPipeline.js';
import { lockedAppend } from './postgresLockedAppend.js';
import type { PostgresNames } from './postgresSchema.js';
import type { PostgresDurability, PostgresStoreContext } from './postgresStoreContext.js';

/**
 * How often an append whose transaction collided with a concurrent one is re-evaluated. Every
 * collision means another append committed, so this only bounds pathological contention.
 */
const maxAppendAttempts = 1_000;

const uniqueViolation = '23505';

/** 23505 unique_violation, 40001 serialization_failure, 40P01 deadlock_detected. */
const retryableCodes = new Set([uniqueViolation, '40001', '40P01']);

/**
 * Appends `events` to a stream of a PostgreSQL store (its `appendToStream`), in one transaction,
 * with the stream's work-index entry when `options.work` is given (SPEC WRK-6), its claim or
 * fencing token judged by `judgeFence` on the stream's work row, locked for the transaction and
 * on the server's clock (SPEC WRK-4, WRK-8), and a claim against its agent name's cap (SPEC
 * WRK-10, `judgePostgresClaimCap`). Usually one statement (`appendOnce`). A collision
 * with a concurrent append is retried against the new state of the stream.
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
  const append: PostgresAppend = {
    streamId,
    events: serialized,
    expectedRevision,
    options: options ?? { expectedRevision },
    locks: locksRun(events, options),
    judged: events,
    predicted: predictFirst(streamId, serialized, expectedRevision),
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

/**
 * One try. When the revision of its first event can be predicted, the append is one statement in
 * its transaction (BEGIN, the statement, COMMIT, written together: one round trip, see
 * `inPipelinedTransaction`): the append function (see `appendFunctionSql`)
 * locks and reads the stream's run, and the events are written when the stream is as predicted.
 * Otherwise the function says what it read, and `judgeRead` judges that: a conflict, a
 * refusal, a stored retry need nothing more; anything else to write goes through `lockedAppend`,
 * as does an append that the unique indexes refused (an id stored, a revision taken), and a claim
 * that its agent's cap must judge (SPEC WRK-10: once per run, so the fast path is for the steps).
 */
async function appendOnce(
  context: PostgresStoreContext,
  append: PostgresAppend,
): Promise<AppendResult> {
  const begin = beginStatement(context.durability, append.options.durable === true);
  const { predicted } = append;
  if (predicted !== null && !claimsUnderCap(append)) {
    try {
      await withPooledClient(context.pool, (client, session) =>
        inPipelinedTransaction(client, session, begin, () =>
          runAppendCall(client, context.names, checkingCall(append)),
        ),
      );
      return { nextExpectedRevision: predicted + append.events.length - 1 };
    } catch (error) {
      // A unique violation: an id is stored already, or an append came first. The locked path
      // reads what is there and decides.
      if (codeOf(error) !== uniqueViolation) {
        const read = readOfError(error);
        if (read === undefined) throw error;
        const decided = judgeRead(append, read);
        if (decided.kind === 'done') return decided.result;
      }
    }
  }
  return lockedAppend(context, append, begin);
}

/**
 * The revision the first event gets when the stream is as the append expects it, none of its
 * events stored: what `judgeAppend` judges then. Null when that cannot be known beforehand
 * (no exact expectation), or when not every event would be written (an id offered twice).
 */
function predictFirst(
  streamId: string,
  events: readonly SerializedEvent[],
  expectedRevision: ExpectedRevision,
): number | null {
  if (typeof expectedRevision !== 'number' && expectedRevision !== 'noStream') return null;
  const decision = judgeAppend(
    { streamId, last: expectedRevision, revisionOf: () => undefined },
    events.map((event) => event.eventId),
    expectedRevision,
  );
  return decision.kind === 'write' && decision.indexes.length === events.length
    ? decision.firstRevision
    : null;
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

function codeOf(error: unknown): unknown {
  return (error as { code?: unknown } | null)?.code;
}

function isRetryable(error: unknown): boolean {
  const code = codeOf(error);
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
