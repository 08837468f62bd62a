import { join } from 'node:path';
import type Database from 'better-sqlite3';
import {
  AgentlogError,
  markParsedJson,
  assertRevisionOption,
  assertValidExpectedRevision,
  assertValidNewEvents,
  satisfiesExpectedRevision,
  assertValidStreamId,
  ConcurrencyError,
  type AppendResult,
  type EventStore,
  type ExpectedRevision,
  type NewStreamEvent,
  type ReadStreamOptions,
  type StreamEvent,
} from '@agentlog/core';
import { createSqliteSubscriptions } from './createSqliteSubscriptions.js';
import { openAgentlogDatabase } from './openAgentlogDatabase.js';

/** Options of `createSqliteEventStore`. */
export interface SqliteEventStoreOptions {
  /** The database file; `.agentlog/agentlog.db` (relative to the working directory) by default. */
  readonly path?: string;
  /**
   * What an append survives once it returns (default `'sideEffects'`):
   * - `'full'`: every append is synced to disk (`synchronous = FULL`) and survives a power loss.
   * - `'sideEffects'`: every append survives a killed process; the appends that precede a side
   *   effect (a tool that is not idempotent) or record a decision are synced to disk and survive
   *   a power loss too. After a power loss the stream ends at or after the last synced append, so
   *   a tool that is not idempotent never runs twice without a person saying so (SPEC TOOL-7).
   * - `'process'`: every append survives a killed process, none is synced: a power loss may
   *   drop the last appends, including the start of a tool that then ran.
   */
  readonly durability?: SqliteDurability;
}

/** What a committed SQLite append survives; see `SqliteEventStoreOptions.durability`. */
export type SqliteDurability = 'full' | 'sideEffects' | 'process';

const durabilities: readonly SqliteDurability[] = ['full', 'sideEffects', 'process'];

/**
 * The `synchronous` level an append commits at: `FULL` syncs the WAL to disk, which in WAL mode
 * makes this commit and every earlier one survive a power loss; `NORMAL` survives a killed
 * process. `durable` is the port's hint that the append precedes a side effect or records a
 * decision.
 */
export function synchronousLevel(
  durability: SqliteDurability,
  durable: boolean,
): 'FULL' | 'NORMAL' {
  if (durability === 'full') return 'FULL';
  return durability === 'sideEffects' && durable ? 'FULL' : 'NORMAL';
}

/**
 * An event store on one SQLite file; `close()` fails its live subscriptions with
 * `AgentlogError('closed')` and releases the file.
 */
export type SqliteEventStore = EventStore & { close(): void };

/** Where `createSqliteEventStore` keeps its events unless told otherwise. */
export const defaultSqlitePath = join('.agentlog', 'agentlog.db');

// Often enough to feel live, rarely enough that an idle subscription costs nothing measurable.
const pollMs = 75;

/**
 * Creates an event store on a SQLite file (better-sqlite3, WAL mode), which several processes may
 * share: an append checks its expected revision inside an immediate transaction, and the unique
 * (stream, revision) constraint turns any race that slips past it into a `ConcurrencyError`.
 */
export function createSqliteEventStore(options: SqliteEventStoreOptions = {}): SqliteEventStore {
  const path = options.path ?? defaultSqlitePath;
  const durability = options.durability ?? 'sideEffects';
  if (!durabilities.includes(durability)) {
    throw new AgentlogError(
      'invalidConfiguration',
      `SQLite durability must be one of ${durabilities.join(', ')}, not ${String(durability)}`,
    );
  }
  const db = openAgentlogDatabase(path);
  // Set on purpose: SQLite's default differs between the connection that switched the file to
  // WAL (FULL) and every later one (NORMAL, as better-sqlite3 builds it).
  const relaxed = synchronousLevel(durability, false);
  db.pragma(`synchronous = ${relaxed}`);
  const sql = {
    last: db
      .prepare('SELECT max(revision) FROM agentlog_events WHERE stream_id = ?')
      .pluck() as Database.Statement<[string], number | null>,
    // One query per batch, not one per event: which of these ids the stream already holds.
    storedIds: db
      .prepare(
        'SELECT event_id, revision FROM agentlog_events WHERE stream_id = ? AND event_id IN (SELECT value FROM json_each(?))',
      )
      .raw() as Database.Statement<[string, string], [string, number]>,
    storedId: db
      .prepare('SELECT revision FROM agentlog_events WHERE stream_id = ? AND event_id = ?')
      .pluck() as Database.Statement<[string, string], number>,
    // An id the stream already holds is skipped by the unique constraint, not by a lookup first.
    insert: db.prepare<[string, number, string, string, string]>(
      'INSERT INTO agentlog_events (stream_id, revision, event_id, type, event) VALUES (?, ?, ?, ?, ?) ON CONFLICT (stream_id, event_id) DO NOTHING',
    ),
    forwards: db
      .prepare(
        'SELECT event FROM agentlog_events WHERE stream_id = ? AND revision >= ? ORDER BY revision LIMIT ?',
      )
      .pluck() as Database.Statement<[string, number, number], string>,
    backwards: db
      .prepare(
        'SELECT event FROM agentlog_events WHERE stream_id = ? AND revision <= ? ORDER BY revision DESC LIMIT ?',
      )
      .pluck() as Database.Statement<[string, number, number], string>,
    streams: db
      .prepare('SELECT stream_id FROM agentlog_events WHERE revision = 0 ORDER BY position')
      .pluck() as Database.Statement<[], string>,
    dataVersion: db.prepare('PRAGMA data_version').pluck() as Database.Statement<[], number>,
  };
  const actualRevision = (streamId: string): number | 'noStream' =>
    sql.last.get(streamId) ?? 'noStream';

  const write = db.transaction(
    (streamId: string, events: readonly NewStreamEvent[], expected: ExpectedRevision) => {
      const actual = actualRevision(streamId);
      const last = actual === 'noStream' ? -1 : actual;
      const first = events[0]?.metadata.eventId;
      // Only a retried append starts with an id the stream holds; then compare the whole batch.
      if (
        first !== undefined &&
        actual !== 'noStream' &&
        sql.storedId.get(streamId, first) !== undefined
      ) {
        const ids = events.map((event) => event.metadata.eventId);
        const stored = new Map(sql.storedIds.all(streamId, JSON.stringify(ids)));
        const start = stored.get(first);
        if (start !== undefined && ids.every((id, index) => stored.get(id) === start + index))
          return { last, revision: last };
      }
      if (!satisfiesExpectedRevision(expected, actual))
        throw new ConcurrencyError(streamId, expected, actual);
      let revision = last;
      for (const { type, data, metadata } of events) {
        const next = revision + 1;
        const event = JSON.stringify({ type, data, metadata: { ...metadata, revision: next } });
        if (sql.insert.run(streamId, next, metadata.eventId, type, event).changes > 0)
          revision = next;
      }
      return { last, revision };
    },
  );

  const append = (
    streamId: string,
    events: readonly NewStreamEvent[],
    expected: ExpectedRevision,
    durable: boolean,
  ): AppendResult => {
    assertValidStreamId(streamId);
    assertValidExpectedRevision(expected);
    assertValidNewEvents(events);
    let written: { last: number; revision: number };
    // In WAL mode a FULL commit syncs the log, and with it every commit before it.
    const sync = synchronousLevel(durability, durable) !== relaxed;
    try {
      if (sync) db.pragma('synchronous = FULL');
      written = write.immediate(streamId, events, expected);
    } catch (error) {
      // Another process won the race between our check and our insert: the transaction rolled back.
      if (isUniqueViolation(error)) {
        throw new ConcurrencyError(streamId, expected, actualRevision(streamId));
      }
      throw error;
    } finally {
      if (sync) db.pragma(`synchronous = ${relaxed}`);
    }
    if (written.revision > written.last) subscriptions.notify(streamId);
    return { nextExpectedRevision: written.revision };
  };

  let closed = false;
  const closedError = () =>
    new AgentlogError('closed', `the SQLite event store on ${path} is closed`);
  const assertOpen = (): void => {
    if (closed) throw closedError();
  };
  const readPage = (streamId: string, from: number, maxCount: number): StreamEvent[] => {
    assertOpen();
    return sql.forwards.all(streamId, from, maxCount).map(toEvent);
  };

  const read = (streamId: string, options: ReadStreamOptions): StreamEvent[] => {
    assertValidStreamId(streamId);
    assertRevisionOption('fromRevision', options.fromRevision);
    assertRevisionOption('maxCount', options.maxCount);
    // SQLite reads a negative LIMIT as "no limit".
    const limit = options.maxCount ?? -1;
    if (options.direction === 'backwards') {
      const from = options.fromRevision ?? Number.MAX_SAFE_INTEGER;
      return sql.backwards.all(streamId, from, limit).map(toEvent);
    }
    return readPage(streamId, options.fromRevision ?? 0, limit);
  };

  const subscriptions = createSqliteSubscriptions(
    {
      readPage,
      dataVersion: () => {
        assertOpen();
        return sql.dataVersion.get() ?? 0;
      },
    },
    pollMs,
  );
  const run = <T>(work: () => T): Promise<T> =>
    new Promise((resolve) => {
      assertOpen();
      resolve(work());
    });

  return {
    appendToStream: (streamId, events, options) =>
      run(() => append(streamId, events, options?.expectedRevision, options?.durable === true)),
    readStream: (streamId, options) => run(() => read(streamId, options ?? {})),
    subscribeToStream: (streamId, options) =>
      subscriptions.subscribe(streamId, options?.fromRevision),
    listStreams: () => run(() => sql.streams.all()),
    close: () => {
      if (closed) return;
      closed = true;
      subscriptions.close(closedError());
      db.close();
    },
  };
}

function toEvent(json: string): StreamEvent {
  const event = JSON.parse(json) as StreamEvent;
  markParsedJson(event.data);
  return event;
}

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
