import type Database from 'better-sqlite3';
import { idleButWaitingSql, storedSchemaVersion } from './migrateAgentlogSchema.js';

/** A row of `agentlog_work` as `workOf` reads it. */
export interface SqliteWorkRow {
  readonly stream_id: string;
  readonly status: string;
  readonly agent: string | null;
  readonly owner: string | null;
  readonly lease_until: number | null;
}

/** A row of `agentlog_workers`. */
export interface SqliteWorkerRow {
  readonly id: string;
  readonly host: string;
  readonly pid: number;
  readonly started_at: number;
  readonly heartbeat_at: number;
  readonly runs: string;
}

/** A row `findWork` selects. */
export interface SqliteFoundRow {
  readonly stream_id: string;
  readonly status: string;
  readonly agent: string | null;
  readonly owner: string | null;
  readonly since: number;
}

/** The statements of a SQLite store's work index; see `prepareSqliteWorkStatements`. */
export interface SqliteWorkStatements {
  readonly upsert: Database.Statement<
    [
      {
        streamId: string;
        status: string;
        agent: string | null;
        owner: string | null;
        leaseUntil: number | null;
        now: number;
      },
    ]
  >;
  /** `agents` a JSON array, `caps` a JSON object. */
  readonly find: Database.Statement<
    [{ agents: string; now: number; caps: string; limit: number }],
    SqliteFoundRow
  >;
  readonly renew: Database.Statement<
    [{ leaseUntil: number; now: number; streamId: string; owner: string }]
  >;
  readonly heartbeat: Database.Statement<
    [{ id: string; host: string; pid: number; now: number; runs: string }]
  >;
  readonly retire: Database.Statement<[string]>;
  /** Heartbeats at or after this time. */
  readonly workers: Database.Statement<[number], SqliteWorkerRow>;
  /** Stream ids as a JSON array. */
  readonly workOf: Database.Statement<[string], SqliteWorkRow>;
  readonly allWork: Database.Statement<[], SqliteWorkRow>;
}

/**
 * The SQL of `findWork`: streams whose status is requested or ready (through the partial index
 * `agentlog_work_waiting`) and running streams whose lease ended before now (through
 * `agentlog_work_leases`), of the wanted agents, oldest first; an agent with a cap gets at most its
 * cap minus its running streams whose lease is live. A running stream without a lease never lapses.
 */
const findSql = `
  WITH wanted(agent) AS (SELECT value FROM json_each(@agents)),
  live AS (
    SELECT agent, count(*) AS n FROM agentlog_work
    WHERE status = 'running' AND (lease_until IS NULL OR lease_until >= @now)
      AND agent IN (SELECT agent FROM wanted)
    GROUP BY agent
  ),
  budget AS (
    SELECT caps.key AS agent, caps.value - coalesce(live.n, 0) AS room
    FROM json_each(@caps) AS caps LEFT JOIN live ON live.agent = caps.key
  ),
  due AS (
    SELECT stream_id, status, agent, owner, since, since AS due_at FROM agentlog_work
    WHERE status IN ('requested', 'ready') AND agent IN (SELECT agent FROM wanted)
    UNION ALL
    SELECT stream_id, status, agent, owner, since, lease_until AS due_at FROM agentlog_work
    WHERE status = 'running' AND lease_until < @now AND agent IN (SELECT agent FROM wanted)
  ),
  ranked AS (
    SELECT due.*, row_number() OVER (PARTITION BY agent ORDER BY due_at, stream_id) AS place
    FROM due
  )
  SELECT ranked.stream_id, ranked.status, ranked.agent, ranked.owner, ranked.since
  FROM ranked LEFT JOIN budget ON budget.agent = ranked.agent
  WHERE budget.room IS NULL OR ranked.place <= budget.room
  ORDER BY ranked.due_at, ranked.stream_id
  LIMIT @limit`;

/**
 * The statements of the work index, prepared on `db` (which must hold schema version 2 or later):
 * the upsert an append runs in its transaction, `findWork`, lease renewal, heartbeats and reads.
 * `since` changes only when the status does, so it is when the stream entered its status; the
 * upsert leaves a row that already says what the entry says as it is (`updated` is when the row
 * last changed), since rewriting it dirties the work table's pages and indexes: half the cost of
 * a commit on SQLite (docs/performance.md). On a
 * version 2 database (read-only, so not migrated) the reads show as `waiting` the `idle` rows of
 * streams that wait for a person, as the migration to version 3 would write them.
 */
export function prepareSqliteWorkStatements(db: Database.Database): SqliteWorkStatements {
  const status =
    storedSchemaVersion(db) < 3
      ? `CASE WHEN ${idleButWaitingSql} THEN 'waiting' ELSE status END AS status`
      : 'status';
  const columns = `stream_id, ${status}, agent, owner, lease_until`;
  return {
    upsert: db.prepare(`
      INSERT INTO agentlog_work (stream_id, status, agent, owner, lease_until, since, updated)
      VALUES (@streamId, @status, @agent, @owner, @leaseUntil, @now, @now)
      ON CONFLICT (stream_id) DO UPDATE SET
        since = CASE WHEN status = excluded.status THEN since ELSE excluded.since END,
        status = excluded.status,
        agent = coalesce(excluded.agent, agent),
        owner = excluded.owner,
        lease_until = excluded.lease_until,
        updated = excluded.updated
      WHERE status IS NOT excluded.status
        OR owner IS NOT excluded.owner
        OR lease_until IS NOT excluded.lease_until
        OR (excluded.agent IS NOT NULL AND agent IS NOT excluded.agent)`),
    find: db.prepare<
      [{ agents: string; now: number; caps: string; limit: number }],
      SqliteFoundRow
    >(findSql),
    renew: db.prepare(
      "UPDATE agentlog_work SET lease_until = @leaseUntil, updated = @now WHERE stream_id = @streamId AND owner = @owner AND status = 'running'",
    ),
    heartbeat: db.prepare(`
      INSERT INTO agentlog_workers (id, host, pid, started_at, heartbeat_at, runs)
      VALUES (@id, @host, @pid, @now, @now, @runs)
      ON CONFLICT (id) DO UPDATE SET
        host = excluded.host, pid = excluded.pid, heartbeat_at = excluded.heartbeat_at,
        runs = excluded.runs`),
    retire: db.prepare('DELETE FROM agentlog_workers WHERE id = ?'),
    workers: db.prepare<[number], SqliteWorkerRow>(
      'SELECT id, host, pid, started_at, heartbeat_at, runs FROM agentlog_workers WHERE heartbeat_at >= ? ORDER BY started_at, id',
    ),
    workOf: db.prepare<[string], SqliteWorkRow>(
      `SELECT ${columns} FROM agentlog_work WHERE stream_id IN (SELECT value FROM json_each(?))`,
    ),
    allWork: db.prepare<[], SqliteWorkRow>(
      `SELECT ${columns} FROM agentlog_work ORDER BY stream_id`,
    ),
  };
}
