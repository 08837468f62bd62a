import type Database from 'better-sqlite3';
import { AgentError, type WorkIndex, type WorkState } from '@agentlog/core';
import { guardStoreSync } from '../storeErrors.js';
import { assertAgentCaps, assertFindWorkOptions, assertLeaseMs } from '@agentlog/core/store-kit';
import { createWorkWaiters } from '../work/createWorkWaiters.js';
import { toWorkItem } from '../work/findWorkQuery.js';
import { hasWorkIndex } from './migrateAgentlogSchema.js';
import { prepareSqliteWorkReads, type SqliteWorkReads } from './prepareSqliteWorkReads.js';
import type { SqliteWorkWrites } from './prepareSqliteWorkWrites.js';
import { toWorkerInfo, toWorkState } from './sqliteWorkRows.js';

/** What a SQLite store gives its work index. */
export interface SqliteWorkIndexContext {
  /** `SQLite store <path>`, for messages. */
  readonly label: string;
  /** The connection to use now (a read-only store may move from a copy to the file). */
  readonly db: () => Database.Database;
  /** The store's clock (SPEC WRK-4): the local clock unless a test injects one. */
  readonly clock: () => Date;
  /** The writes, on a store opened for writing; undefined on one opened read-only. */
  readonly writes: SqliteWorkWrites | undefined;
  /** Throws `AgentlogError('closed')` once the store is closed. */
  readonly assertOpen: () => void;
  /** A number that changes when another connection committed (`PRAGMA data_version`). */
  readonly dataVersion: () => number;
  /** How often a wait looks at `dataVersion`. */
  readonly pollMs: number;
}

/** A SQLite store's work index, and what its store does with it. */
export interface SqliteWorkIndex {
  /** The index, as the store hands it out (`store.work`). */
  readonly index: WorkIndex;
  /** Ends the waits of `waitForWork`: an append made a stream need work. */
  wake(): void;
  /** Ends the polling of pending waits and resolves them. */
  close(): void;
}

/**
 * The work index of a SQLite store (SPEC WRK-6), on its `agentlog_work` and `agentlog_workers`
 * tables; leases are judged on `context.clock` (the local clock: one machine, SPEC WRK-4). On a
 * read-only store the reads work (and see no work in a database of schema version 1, which has no
 * index) and the writes are refused with `AgentError('storeFailed')`.
 */
export function createSqliteWorkIndex(context: SqliteWorkIndexContext): SqliteWorkIndex {
  const { label } = context;
  // Prepared again when a read-only store moves to another connection, which may hold an older
  // schema, or none of the work index (schema version 1).
  let prepared: { db: Database.Database; sql: SqliteWorkReads | undefined } | undefined;
  const reads = (): SqliteWorkReads | undefined => {
    const db = context.db();
    if (prepared?.db !== db) {
      prepared = { db, sql: hasWorkIndex(db) ? prepareSqliteWorkReads(db) : undefined };
    }
    return prepared.sql;
  };
  const reading = <T>(what: string, empty: T, work: (sql: SqliteWorkReads) => T): Promise<T> =>
    run(() => {
      context.assertOpen();
      return guardStoreSync(label, `${what} failed`, () => {
        const sql = reads();
        return sql === undefined ? empty : work(sql);
      });
    });
  const writing = <T>(what: string, work: (sql: SqliteWorkWrites) => T): Promise<T> =>
    run(() => {
      context.assertOpen();
      const { writes } = context;
      if (writes === undefined) {
        throw new AgentError(
          'storeFailed',
          `${label}: ${what} was refused: the store was opened read-only (readonly: true)`,
        );
      }
      return guardStoreSync(label, `${what} failed`, () => work(writes));
    });
  const now = (): number => context.clock().getTime();

  const waiters = createWorkWaiters();
  let poll: ReturnType<typeof setInterval> | undefined;
  const watchOtherProcesses = (): void => {
    if (poll !== undefined) return;
    let seen: number | undefined;
    try {
      seen = context.dataVersion();
    } catch {
      // The first poll takes it.
    }
    poll = setInterval(() => {
      if (waiters.size === 0) {
        clearInterval(poll);
        poll = undefined;
        return;
      }
      let version: number;
      try {
        version = context.dataVersion();
      } catch {
        return; // The wait ends after its ms anyway.
      }
      if (seen !== undefined && version !== seen) waiters.wake();
      seen = version;
    }, context.pollMs);
    poll.unref();
  };

  const index: WorkIndex = {
    now: () => run(() => context.clock()),
    findWork: (options) =>
      run(() => assertFindWorkOptions(options)).then(() =>
        options.limit === 0 || options.agents.length === 0
          ? []
          : reading('finding work', [], (sql) =>
              sql.find
                .all({
                  agents: JSON.stringify(options.agents),
                  now: now(),
                  limit: options.limit,
                })
                .map(toWorkItem),
            ),
      ),
    unservedWork: (options) =>
      run(() => assertFindWorkOptions(options)).then(() =>
        options.limit === 0
          ? []
          : reading('finding unserved work', [], (sql) =>
              sql.unserved
                .all({ agents: JSON.stringify(options.agents), now: now(), limit: options.limit })
                .map(toWorkItem),
            ),
      ),
    renewLease: (streamId, owner, leaseMs, fence) =>
      run(() => assertLeaseMs(leaseMs, 'renewLease: leaseMs')).then(() =>
        writing(`renewing the lease of stream ${streamId}`, (sql) => {
          const at = now();
          const leaseUntil = at + leaseMs;
          // With a token, only the run of the stream's last claim renews (SPEC WRK-8).
          const renewed = sql.renew.run({
            leaseUntil,
            now: at,
            streamId,
            owner,
            fence: fence ?? null,
          });
          return renewed.changes > 0;
        }),
      ),
    caps: () =>
      reading('reading the caps', {}, (sql) =>
        Object.fromEntries(sql.caps.all().map((row) => [row.agent, row.cap])),
      ),
    setCaps: (caps) =>
      run(() => assertAgentCaps(caps)).then(() =>
        writing('setting the caps', (sql) => {
          const before = setSqliteCaps(context.db(), sql, caps, now());
          // A cap raised or removed may free work that findWork held back.
          waiters.wake();
          return before;
        }),
      ),
    heartbeat: (worker) =>
      writing(`the heartbeat of worker ${worker.id}`, (sql) => {
        const { id, host, pid } = worker;
        const runs = JSON.stringify(worker.runs);
        const agents = worker.agents === undefined ? null : JSON.stringify(worker.agents);
        sql.heartbeat.run({ id, host, pid, now: now(), runs, agents });
      }),
    retire: (workerId) =>
      writing(`retiring worker ${workerId}`, (sql) => {
        sql.retire.run(workerId);
      }),
    listWorkers: (options) =>
      reading('listing the workers', [], (sql) =>
        sql.workers
          .all(options?.withinMs === undefined ? Number.MIN_SAFE_INTEGER : now() - options.withinMs)
          .map(toWorkerInfo),
      ),
    workOf: (streamIds) =>
      reading('reading the work index', new Map<string, WorkState>(), (sql) => {
        const rows =
          streamIds === undefined ? sql.allWork.all() : sql.workOf.all(JSON.stringify(streamIds));
        return new Map(rows.map((row) => [row.stream_id, toWorkState(row)]));
      }),
    waitForWork: (ms, signal) =>
      run(() => {
        context.assertOpen();
        watchOtherProcesses();
      }).then(() => waiters.wait(ms, signal)),
  };
  return {
    index,
    wake: () => waiters.wake(),
    close: () => {
      if (poll !== undefined) clearInterval(poll);
      poll = undefined;
      waiters.close();
    },
  };
}

/**
 * Sets or removes (`null`) the cap of each agent name given, in one immediate transaction, and
 * returns the caps those names had before (SPEC WRK-10).
 */
function setSqliteCaps(
  db: Database.Database,
  sql: SqliteWorkWrites,
  caps: Readonly<Record<string, number | null>>,
  now: number,
): Record<string, number> {
  return db
    .transaction(() => {
      const before: Record<string, number> = {};
      for (const [agent, cap] of Object.entries(caps)) {
        const had = sql.capOf.get(agent);
        if (had !== undefined) before[agent] = had;
        if (cap === null) sql.removeCap.run(agent);
        else sql.setCap.run({ agent, cap, now });
      }
      return before;
    })
    .immediate();
}

function run<T>(work: () => T): Promise<T> {
  return new Promise((resolve) => resolve(work()));
}
