import { machineClock } from './machineClock.js';
import { durabilities, synchronousLevel, type SqliteDurability } from './synchronousLevel.js';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import {
  AgentError,
  AgentlogError,
  InvalidEventError,
  type AppendOptions,
  type AppendResult,
  type EventStore,
  type NewStreamEvent,
  type ReadStreamOptions,
  type StreamEvent,
  type WorkIndex,
} from '@agentlog/core';
import {
  assertFenceOptions,
  assertRevisionOption,
  assertValidExpectedRevision,
  assertValidNewEvents,
  assertValidStreamId,
  assertValidWorkEntry,
  needsWorkNow,
} from '@agentlog/core/store-kit';
import {
  assertNoRevisionGap,
  guardStoreSync,
  revisionJump,
  streamOf,
  streamWhere,
  type ReadShape,
} from '../storeErrors.js';
import { createSqliteSubscriptions } from './createSqliteSubscriptions.js';
import {
  prepareSqliteStatements,
  type SqliteStatements,
  type StoredRow,
} from './prepareSqliteStatements.js';
import { toSqliteEvent } from './toSqliteEvent.js';
import { storedRows } from './storedRows.js';
import { createSqliteAppendWrite } from './createSqliteAppendWrite.js';
import { createSqliteWorkIndex } from './createSqliteWorkIndex.js';
import { prepareSqliteWorkWrites } from './prepareSqliteWorkWrites.js';
import { busyTimeoutMs, openAgentlogDatabase } from './openAgentlogDatabase.js';
import { openReadonlyDatabase } from './openReadonlyDatabase.js';

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
  /**
   * Opens the file read-only (default false): no schema is created or migrated, so a missing
   * file, or one without the agentlog schema, is refused naming the path; appends are refused
   * with `AgentError('storeFailed')`; nothing is written in the file or beside it (SPEC REV-2).
   * Reads never wait for another process's write lock.
   */
  readonly readonly?: boolean;
  /**
   * How long, in milliseconds, an operation waits for another process's lock before it fails
   * with `storeUnavailable` (default 5000). better-sqlite3 waits synchronously, so this is also
   * the longest the event loop is blocked by one operation.
   */
  readonly busyTimeoutMs?: number;
  /**
   * The store's clock, which judges the leases of the work index (SPEC WRK-4). Default: the
   * machine's clock (`machineClock`: boot time plus time since boot), which every process sharing
   * the file reads alike, whatever its own time of day says. For tests.
   */
  readonly clock?: () => Date;
}

export { synchronousLevel, type SqliteDurability } from './synchronousLevel.js';

/**
 * An event store on one SQLite file; `close()` fails its live subscriptions with
 * `AgentlogError('closed')` and releases the file.
 */
export type SqliteEventStore = EventStore & { readonly work: WorkIndex; close(): void };

/** Where `createSqliteEventStore` keeps its events unless told otherwise. */
export const defaultSqlitePath = join('.agentlog', 'agentlog.db');

// Often enough to feel live, rarely enough that an idle subscription costs nothing measurable.
const pollMs = 75;

/**
 * Creates an event store on a SQLite file (better-sqlite3, WAL mode), which several processes may
 * share: an append checks its expected revision inside an immediate transaction, and the unique
 * (stream, revision) constraint turns any race that slips past it into a `ConcurrencyError`.
 *
 * A fault of SQLite or of the disk (the write lock still held by another process after the busy
 * timeout, an I/O error, a file that cannot be opened) throws `AgentError('storeUnavailable')`
 * naming the file and the stream, with better-sqlite3's error as `cause`. A stored row that is not
 * an event, or a revision missing among the ones read, is an error naming the file, the stream and
 * the revision.
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
  const timeoutMs = options.busyTimeoutMs ?? busyTimeoutMs;
  if (!Number.isSafeInteger(timeoutMs) || timeoutMs < 0) {
    throw new AgentlogError(
      'invalidConfiguration',
      `SQLite busyTimeoutMs must be an integer >= 0, not ${String(timeoutMs)}`,
    );
  }
  const readonly = options.readonly === true;
  const label = `SQLite store ${path}`;
  const where = (streamId: string): string => streamWhere(label, streamId);
  // Set on purpose: SQLite's default differs between the connection that switched the file to
  // WAL (FULL) and every later one (NORMAL, as better-sqlite3 builds it).
  const relaxed = synchronousLevel(durability, false);
  const connection = guardStoreSync(label, 'opening the database failed', () => {
    if (readonly) return openReadonlyDatabase(path, timeoutMs);
    const db = openAgentlogDatabase(path, timeoutMs);
    try {
      db.pragma(`synchronous = ${relaxed}`);
    } catch (error) {
      db.close();
      throw error;
    }
    return { current: () => db, close: () => db.close() };
  });
  // A read-only store may move from a copy of the file to the file: statements follow it.
  let prepared: { db: Database.Database; sql: SqliteStatements } | undefined;
  // How often it moved: `data_version` counts per connection, so a move must count as a change.
  let moves = -1;
  const statements = (): SqliteStatements => {
    const db = connection.current();
    if (prepared?.db !== db) {
      prepared = { db, sql: prepareSqliteStatements(db) };
      moves += 1;
    }
    return prepared.sql;
  };
  try {
    guardStoreSync(label, 'opening the database failed', statements);
  } catch (error) {
    connection.close();
    throw error;
  }
  // Read-write, the connection never changes.
  const db = connection.current();

  const clock = options.clock ?? machineClock();
  // Read-write, the schema is the current one (openAgentlogDatabase migrated it); read-only, it
  // may be older, and nothing is written.
  const workWrites = readonly ? undefined : prepareSqliteWorkWrites(db);
  const write =
    workWrites === undefined
      ? undefined
      : createSqliteAppendWrite({
          db,
          sql: statements(),
          work: workWrites,
          clock,
          durability,
          relaxed,
        });

  const append = (
    streamId: string,
    events: readonly NewStreamEvent[],
    options: AppendOptions | undefined,
  ): AppendResult => {
    if (write === undefined) {
      throw new AgentError(
        'storeFailed',
        `${where(streamId)}: the append was refused: the store was opened read-only (readonly: true)`,
      );
    }
    const expected = options?.expectedRevision;
    const work = options?.work;
    assertValidStreamId(streamId);
    assertValidExpectedRevision(expected);
    assertValidNewEvents(events);
    if (work !== undefined) assertValidWorkEntry(streamId, work);
    if (options !== undefined) assertFenceOptions(streamId, options);
    const written = guardStoreSync(where(streamId), 'the append failed', () =>
      write(streamId, events, expected, options),
    );
    if (written.revision > written.last) {
      subscriptions.notify(streamId);
      if (work !== undefined && needsWorkNow(work.status)) workIndex.wake();
    }
    return { nextExpectedRevision: written.revision };
  };

  let closed = false;
  const closedError = () =>
    new AgentlogError('closed', `the SQLite event store on ${path} is closed`);
  const assertOpen = (): void => {
    if (closed) throw closedError();
  };
  /**
   * The events of `rows` (see `storedRows`: a page at once, a longer read as the statement steps,
   * so a read holds at most a page of text beside its events). A row that is no event stops the
   * read; its error names the revision and the stored type (asked once the statement is done,
   * since a connection runs one statement at a time).
   */
  const toEvents = (streamId: string, rows: () => Iterable<StoredRow>): StreamEvent[] => {
    const events: StreamEvent[] = [];
    let bad: { revision: number; problem: string } | undefined;
    guardStoreSync(where(streamId), 'the read failed', () => {
      for (const [revision, json] of rows()) {
        const event = toSqliteEvent(json, revision);
        if (typeof event === 'string') {
          bad = { revision, problem: event };
          break;
        }
        events.push(event);
      }
    });
    if (bad !== undefined) {
      const { revision, problem } = bad;
      const type = guardStoreSync(where(streamId), 'the read failed', () =>
        statements().typeAt.get(streamId, revision),
      );
      throw new InvalidEventError(
        type ?? '(unknown)',
        revision,
        `${streamOf(streamId, label)}: ${problem}`,
      );
    }
    return events;
  };
  const checked = (streamId: string, events: StreamEvent[], read: ReadShape): StreamEvent[] => {
    assertNoRevisionGap(streamId, label, events, read);
    return events;
  };
  const readPage = (streamId: string, from: number, maxCount: number): StreamEvent[] => {
    assertOpen();
    const events = toEvents(streamId, () =>
      storedRows(statements().forwards, streamId, from, maxCount),
    );
    return checked(streamId, events, { fromRevision: from });
  };

  const readBackwards = (streamId: string, options: ReadStreamOptions): StreamEvent[] => {
    const from = options.fromRevision;
    // SQLite reads a negative LIMIT as "no limit".
    const events = toEvents(streamId, () =>
      storedRows(
        statements().backwards,
        streamId,
        from ?? Number.MAX_SAFE_INTEGER,
        options.maxCount ?? -1,
      ),
    );
    const top = events[0]?.metadata.revision;
    // Read from a revision the stream does not hold: either it is beyond the end, or the rows
    // from the first one read up to it were deleted. Only then does it take a second query.
    if (top !== undefined && from !== undefined && top < from) {
      const next = guardStoreSync(where(streamId), 'the read failed', () =>
        statements().nextAbove.get(streamId, from),
      );
      if (next !== undefined && next !== null) throw revisionJump(streamId, label, top, next);
    }
    return checked(streamId, events, options);
  };

  const read = (streamId: string, options: ReadStreamOptions): StreamEvent[] => {
    assertValidStreamId(streamId);
    assertRevisionOption('fromRevision', options.fromRevision);
    assertRevisionOption('maxCount', options.maxCount);
    if (options.direction === 'backwards') return readBackwards(streamId, options);
    return readPage(streamId, options.fromRevision ?? 0, options.maxCount ?? -1);
  };

  const dataVersion = (): number => {
    assertOpen();
    return guardStoreSync(label, 'watching for appends failed', () => {
      const version = statements().dataVersion.get() ?? 0;
      return moves * 2 ** 32 + version;
    });
  };
  const subscriptions = createSqliteSubscriptions({ readPage, dataVersion }, pollMs);
  const workIndex = createSqliteWorkIndex({
    label,
    db: () => connection.current(),
    clock,
    writes: workWrites,
    assertOpen,
    dataVersion,
    pollMs,
  });
  const run = <T>(work: () => T): Promise<T> =>
    new Promise((resolve) => {
      assertOpen();
      resolve(work());
    });

  return {
    label,
    appendToStream: (streamId, events, options) => run(() => append(streamId, events, options)),
    readStream: (streamId, options) => run(() => read(streamId, options ?? {})),
    subscribeToStream: (streamId, subscribeOptions) =>
      subscriptions.subscribe(streamId, subscribeOptions?.fromRevision),
    listStreams: () =>
      run(() =>
        guardStoreSync(label, 'listing the streams failed', () => statements().streams.all()),
      ),
    work: workIndex.index,
    close: () => {
      if (closed) return;
      closed = true;
      subscriptions.close(closedError());
      workIndex.close();
      guardStoreSync(label, 'closing the database failed', () => connection.close());
    },
  };
}
