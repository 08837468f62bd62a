import type { WorkerInfo, WorkIndex, WorkState, WorkStatus } from '@agentlog/core';
import { guardStore } from '../storeErrors.js';
import { assertLeaseMs } from '../work/assertValidWorkEntry.js';
import {
  assertFindWorkOptions,
  isoTime,
  toWorkItem,
  type FoundRow,
} from '../work/findWorkQuery.js';
import type { PostgresWorkListener } from './createPostgresWorkListener.js';
import type { PostgresNames } from './postgresSchema.js';
import type { PostgresStoreContext } from './postgresStoreContext.js';

/**
 * The SQL of `findWork`: streams whose status is requested or ready (through the partial index
 * `work_waiting`) and running streams whose lease ended before the server's now (through
 * `work_leases`), of the wanted agents ($1), oldest first; an agent with a cap ($2, a JSON
 * object) gets at most its cap minus its running streams whose lease is live; at most $3 rows. A
 * running stream without a lease never lapses.
 */
function findSql(names: PostgresNames): string {
  return `
    WITH live AS (
      SELECT agent, count(*) AS n FROM ${names.work}
      WHERE status = 'running' AND (lease_until IS NULL OR lease_until >= now())
        AND agent = ANY($1::text[])
      GROUP BY agent
    ),
    budget AS (
      SELECT caps.key AS agent, caps.value::bigint - coalesce(live.n, 0) AS room
      FROM json_each_text($2::json) AS caps LEFT JOIN live ON live.agent = caps.key
    ),
    due AS (
      SELECT stream_id, status, agent, owner, since, since AS due_at FROM ${names.work}
      WHERE status IN ('requested', 'ready') AND agent = ANY($1::text[])
      UNION ALL
      SELECT stream_id, status, agent, owner, since, lease_until AS due_at FROM ${names.work}
      WHERE status = 'running' AND lease_until < now() AND agent = ANY($1::text[])
    ),
    ranked AS (
      SELECT due.*, row_number() OVER (PARTITION BY agent ORDER BY due_at, stream_id) AS place
      FROM due
    )
    SELECT ranked.stream_id, ranked.status, ranked.agent, ranked.owner, ranked.since
    FROM ranked LEFT JOIN budget ON budget.agent = ranked.agent
    WHERE budget.room IS NULL OR ranked.place <= budget.room
    ORDER BY ranked.due_at, ranked.stream_id
    LIMIT $3`;
}

/** The SQL `findWork` runs on a store with these names (for EXPLAIN in tests). */
export const postgresFindWorkSql = findSql;

interface WorkRow {
  readonly stream_id: string;
  readonly status: string;
  readonly agent: string | null;
  readonly owner: string | null;
  readonly lease_until: Date | null;
}

interface WorkerRow {
  readonly id: string;
  readonly host: string;
  readonly pid: number;
  readonly started_at: Date;
  readonly heartbeat_at: Date;
  readonly runs: string[];
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
        JSON.stringify(options.caps ?? {}),
        options.limit,
      ]);
      return rows.map(toWorkItem);
    },
    renewLease: async (streamId, owner, leaseMs) => {
      assertLeaseMs(leaseMs, 'renewLease: leaseMs');
      const { rowCount } = await query(
        `renewing the lease of stream ${streamId}`,
        `UPDATE ${names.work} SET lease_until = now() + $3::bigint * interval '1 millisecond',
           updated = now()
         WHERE stream_id = $1 AND owner = $2 AND status = 'running'`,
        [streamId, owner, leaseMs],
      );
      return rowCount > 0;
    },
    heartbeat: async (worker: WorkerInfo) => {
      await query(
        `the heartbeat of worker ${worker.id}`,
        `INSERT INTO ${names.workers} (id, host, pid, started_at, heartbeat_at, runs)
         VALUES ($1, $2, $3, now(), now(), $4::json)
         ON CONFLICT (id) DO UPDATE SET host = excluded.host, pid = excluded.pid,
           heartbeat_at = excluded.heartbeat_at, runs = excluded.runs`,
        [worker.id, worker.host, worker.pid, JSON.stringify(worker.runs)],
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
        `SELECT id, host, pid, started_at, heartbeat_at, runs FROM ${names.workers}
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
      }));
    },
    workOf: async (streamIds) => {
      const columns = 'stream_id, status, agent, owner, lease_until';
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
  };
}
