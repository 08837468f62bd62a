import type Database from 'better-sqlite3';
import {
  ConcurrencyError,
  type AppendOptions,
  type ExpectedRevision,
  type NewStreamEvent,
  type WorkStatus,
} from '@agentlog/core';
import {
  cappedAgentOf,
  judgeAppend,
  judgeCap,
  judgeFence,
  type FencedEntry,
} from '@agentlog/core/store-kit';
import { insertSqliteEvents } from './insertSqliteEvents.js';
import { isUniqueViolation } from './isUniqueViolation.js';
import type { SqliteStatements } from './prepareSqliteStatements.js';
import type { SqliteHeadRow, SqliteWorkWrites } from './prepareSqliteWorkWrites.js';
import { synchronousLevel, type SqliteDurability } from './synchronousLevel.js';
import { upsertSqliteWork } from './upsertSqliteWork.js';

/** What the append of a read-write SQLite store works with. */
export interface SqliteAppendContext {
  readonly db: Database.Database;
  readonly sql: SqliteStatements;
  readonly work: SqliteWorkWrites;
  /** The store's clock (SPEC WRK-4): leases and claims are judged on it. */
  readonly clock: () => Date;
  readonly durability: SqliteDurability;
  /** The connection's `synchronous` level between appends. */
  readonly relaxed: string;
}

/** What an append did: the stream's last revision before it, and the next expected revision. */
export interface SqliteWritten {
  readonly last: number;
  readonly revision: number;
}

/** One append, checked and written in one immediate transaction; see `createSqliteAppendWrite`. */
export type SqliteAppendWrite = (
  streamId: string,
  events: readonly NewStreamEvent[],
  expected: ExpectedRevision,
  options: AppendOptions | undefined,
) => SqliteWritten;

/**
 * The write of a SQLite store's append (its arguments already checked): one immediate transaction
 * that reads the stream's last revision and work row, decides the append, judges the run's fence
 * on the store's clock (`judgeFence`, SPEC WRK-4, WRK-8) and a claim against its agent's cap
 * (`judgeCap`, WRK-10), inserts the events and writes the work entry (SPEC WRK-6), at `synchronous = FULL` when the append must survive a power loss. The
 * write lock is taken before the first read, so no other process can claim the stream between the
 * judgement and the insert. A race on the (stream, revision) constraint that slips past the check
 * is a `ConcurrencyError`.
 */
export function createSqliteAppendWrite(context: SqliteAppendContext): SqliteAppendWrite {
  const { db, sql, work, clock, durability, relaxed } = context;
  const write = db.transaction(
    (
      streamId: string,
      events: readonly NewStreamEvent[],
      expected: ExpectedRevision,
      options: AppendOptions | undefined,
    ): SqliteWritten => {
      const head = work.head.get(streamId) as SqliteHeadRow;
      const actual = head.last ?? 'noStream';
      const last = head.last ?? -1;
      const ids = events.map((event) => event.metadata.eventId);
      // Decided first as if the stream held none of the offered ids, with no lookup per id: the
      // UNIQUE (stream_id, event_id) constraint checks it as the rows go in. Only when that
      // decision is no write, or the constraint refuses an id, is the append decided with a
      // lookup per id (a retry, a partly stored append, a stale expectation).
      const unseen = judgeAppend(
        { streamId, last: actual, revisionOf: () => undefined },
        ids,
        expected,
      );
      let decision = unseen;
      if (unseen.kind !== 'write' || !insertSqliteEvents(sql, streamId, events, unseen, true)) {
        decision = judgeAppend(
          { streamId, last: actual, revisionOf: (id) => sql.storedId.get(streamId, id) },
          ids,
          expected,
        );
        if (decision.kind === 'write') insertSqliteEvents(sql, streamId, events, decision, false);
      }
      if (decision.kind === 'alreadyStored') return { last, revision: last };
      const now = clock().getTime();
      // Judged before the revision, as the in-memory store does: a holder whose token went stale
      // learns that it lost the run, not that the stream moved on. A refusal throws, and the
      // transaction takes back the events inserted above.
      const claims = judgeFence(streamId, fencedEntry(head), events, options ?? {}, now);
      if (decision.kind === 'conflict') throw decision.error;
      // A claim of a run whose agent name is at its cap (SPEC WRK-10): counted under the write
      // lock, so two claims never both take the last place.
      const capped =
        claims && options !== undefined ? cappedAgentOf(options, head.agent) : undefined;
      if (capped !== undefined) {
        const row = work.claimCap.get({ agent: capped, streamId, now });
        if (row !== undefined) judgeCap(streamId, capped, row.cap, row.running);
      }
      // The stream's work-index entry, in the same transaction as the events it describes (SPEC
      // WRK-6); an append that stores no event (a retry, an empty append) leaves it as it is.
      if (options?.work !== undefined) {
        const fence = claims ? decision.firstRevision : undefined;
        upsertSqliteWork(work, streamId, options.work, now, fence, head);
      }
      return { last, revision: decision.nextExpectedRevision };
    },
  );

  return (streamId, events, expected, options) => {
    // In WAL mode a FULL commit syncs the log, and with it every commit before it.
    const sync = synchronousLevel(durability, options?.durable === true) !== relaxed;
    try {
      if (sync) db.pragma('synchronous = FULL');
      return write.immediate(streamId, events, expected, options);
    } catch (error) {
      // Another process won the race between our check and our insert: the transaction rolled back.
      if (isUniqueViolation(error)) {
        throw new ConcurrencyError(streamId, expected, sql.last.get(streamId) ?? 'noStream');
      }
      throw error;
    } finally {
      if (sync) {
        try {
          db.pragma(`synchronous = ${relaxed}`);
        } catch {
          // The connection stays at FULL, which only costs time; the append's own outcome stands.
        }
      }
    }
  };
}

/** The work row of `head` as `judgeFence` reads it; undefined when the stream has none. */
function fencedEntry(head: SqliteHeadRow): FencedEntry | undefined {
  if (head.status === null) return undefined;
  return {
    status: head.status as WorkStatus,
    owner: head.owner,
    leaseUntil: head.lease_until,
    fence: head.fence,
  };
}
