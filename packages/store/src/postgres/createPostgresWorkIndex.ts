import type { WorkerInfo, WorkIndex, WorkState, WorkStatus } from '@agentlog/core';
import { guardStore } from '../storeErrors.js';
import { assertFindWorkOptions, assertLeaseMs } from '@agentlog/core/store-kit';
import { isoTime, toWorkItem, type FoundRow } from '../work/findWorkQuery.js';
import type { PostgresWorkListener } from './createPostgresWorkListener.js';
import { postgresCaps } from './postgresCaps.js';
import { findSql, unservedSql } from './postgresWorkSql.js';

/** The SQL `findWork` runs on a store with these names (for EXPLAIN in tests). */
export { findSql as postgresFindWorkSql } from './postgresWorkSql.js';
import type { PostgresStoreContext } from './postgresStoreContext.js';

interface WorkRow {
  readonly stream_id: string;
  readonly status: string;
  readonly agent: string | null;
  readonly owner: string | null;
  readonly lease_until: Date | null;
  readonly fence: string | null;
}

interface WorkerRow {
  readonly id: string;
  readonly host: string;
  readonly pid: number;
  readonly started_at: Date;
  readonly heartbeat_at: Date;
  readonly runs: string[];
  readonly agents: string[] | null;
}

/**
 * The work index of a PostgreSQL store (SPEC WRK-6), on its `work` and `workers` tables. Every
 * time is the server's: `now()`, the start of the statement's transaction, so a worker's clock
 * never enters a lease (SPEC WRK-4). `waitForWork` listens on the work channel.
 */
export function createPostgresWorkIndex(
  context: PostgresStoreContext,
  listener: PostgresWorkListener,
): WorkIndex {
  const { pool, names, label } = context;
  const query = async <R extends object>(
    what: string,
    sql: string,
    values: unknown[] = [],
  ): Promise<{ rows: R[]; rowCount: number }> =>
    guardStore(label, `${what} failed`, async () => {
      await context.ready();
      const result = await pool.query<R>(sql, values);
      return { rows: result.rows, rowCount: result.rowCount ?? 0 };
    });

  return {
    now: async () => {
      const { rows } = await query<{ now: Date }>('reading the clock', 'SELECT now() AS now');
      return rows[0]?.now ?? new Date(Number.NaN);
    },
    findWork: async (options) => {
      assertFindWorkOptions(options);
      if (options.limit === 0 || options.agents.length === 0) return [];
      const { rows } = await query<FoundRow & { since: Date }>('finding work', findSql(names), [
        options.agents,
        options.limit,
      ]);
      return rows.map(toWorkItem);
    },
    renewLease: async (streamId, owner, leaseMs, fence) => {
      assertLeaseMs(leaseMs, 'renewLease: leaseMs');
      // No claim ever makes a token that is not a whole number: such a token holds no lease.
      if (fence !== undefined && !(Number.isSafeInteger(fence) && fence >= 0)) return false;
      // With a token, only while the stream's last claim is the one that made it (SPEC WRK-8).
      const { rowCount } = await query(
        `renewing the lease of stream ${streamId}`,
        `UPDATE ${names.work} SET lease_until = now() + $3::bigint * interval '1 millisecond',
           updated = now()
         WHERE stream_id = $1 AND owner = $2 AND status = 'running'
           AND ($4::bigint IS NULL OR fence = $4::bigint)`,
        [streamId, owner, leaseMs, fence ?? null],
      );
      return rowCount > 0;
    },
    unservedWork: async (options) => {
      assertFindWorkOptions(options);
      if (options.limit === 0) return [];
      const { rows } = await query<FoundRow & { since: Date }>(
        'finding unserved work',
        unservedSql(names),
        [options.agents, options.limit],
      );
      return rows.map(toWorkItem);
    },
    ...postgresCaps(names, query),
    heartbeat: async (worker: WorkerInfo) => {
      await query(
        `the heartbeat of worker ${worker.id}`,
        `INSERT INTO ${names.workers} (id, host, pid, started_at, heartbeat_at, runs, agents)
         VALUES ($1, $2, $3, now(), now(), $4::json, $5::json)
         ON CONFLICT (id) DO UPDATE SET host = excluded.host, pid = excluded.pid,
           heartbeat_at = excluded.heartbeat_at, runs = excluded.runs, agents = excluded.agents`,
        [
          worker.id,
          worker.host,
          worker.pid,
          JSON.stringify(worker.runs),
          worker.agents === undefined ? null : JSON.stringify(worker.agents),
        ],
      );
    },
    retire: async (workerId) => {
      await query(`retiring worker ${workerId}`, `DELETE FROM ${names.workers} WHERE id = $1`, [
        workerId,
      ]);
    },
    listWorkers: async (options) => {
      const { rows } = await query<WorkerRow>(
        'listing the workers',
        `SELECT id, host, pid, started_at, heartbeat_at, runs, agents FROM ${names.workers}
         WHERE $1::bigint IS NULL OR heartbeat_at >= now() - $1::bigint * interval '1 millisecond'
         ORDER BY started_at, id`,
        [options?.withinMs ?? null],
      );
      return rows.map((row) => ({
        id: row.id,
        host: row.host,
        pid: row.pid,
        startedAt: isoTime(row.started_at),
        heartbeatAt: isoTime(row.heartbeat_at),
        runs: row.runs,
        ...(row.agents === null ? {} : { agents: row.agents }),
      }));
    },
    workOf: async (streamIds) => {
      const columns = 'stream_id, status, agent, owner, lease_until, fence';
      const { rows } =
        streamIds === undefined
          ? await query<WorkRow>(
              'reading the work index',
              `SELECT ${columns} FROM ${names.work} ORDER BY stream_id`,
            )
          : await query<WorkRow>(
              'reading the work index',
              `SELECT ${columns} FROM ${names.work} WHERE stream_id = ANY($1::text[])`,
              [streamIds],
            );
      return new Map(rows.map((row) => [row.stream_id, toWorkState(row)]));
    },
    waitForWork: (ms, signal) => listener.wait(ms, signal),
  };
}

function toWorkState(row: WorkRow): WorkState {
  return {
    status: row.status as WorkStatus,
    ...(row.agent === null ? {} : { agent: row.agent }),
    ...(row.owner === null ? {} : { owner: row.owner }),
    ...(row.lease_until === null ? {} : { leaseUntil: isoTime(row.lease_until) }),
    ...(row.fence === null ? {} : { fence: Number(row.fence) }),
  };
}
