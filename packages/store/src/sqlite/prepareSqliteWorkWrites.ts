import type Database from 'better-sqlite3';

/**
 * What an append reads first (`head`): the stream's last revision and its work-index row, on which
 * the fence is judged (`judgeFence`) and the upsert decided (`upsertSqliteWork`); the row's
 * columns are NULL when the stream has none.
 */
export interface SqliteHeadRow {
  readonly last: number | null;
  readonly status: string | null;
  readonly agent: string | null;
  readonly owner: string | null;
  readonly lease_until: number | null;
  readonly fence: number | null;
}

/** The parameters of the work-index upsert; see `upsertSqliteWork`. */
export interface SqliteUpsertParams {
  readonly streamId: string;
  readonly status: string;
  readonly agent: string | null;
  readonly owner: string | null;
  readonly leaseUntil: number | null;
  /** The new fencing token when the append claimed the run; NULL leaves the row's as it is. */
  readonly fence: number | null;
  readonly now: number;
}

/** The writes of a SQLite store's work index; see `prepareSqliteWorkWrites`. */
export interface SqliteWorkWrites {
  readonly head: Database.Statement<[string], SqliteHeadRow>;
  readonly upsert: Database.Statement<[SqliteUpsertParams]>;
  /** `fence` NULL renews whatever the row's token. */
  readonly renew: Database.Statement<
    [{ leaseUntil: number; now: number; streamId: string; owner: string; fence: number | null }]
  >;
  /** `agents` a JSON array, or NULL when the worker gave none. */
  readonly heartbeat: Database.Statement<
    [{ id: string; host: string; pid: number; now: number; runs: string; agents: string | null }]
  >;
  readonly retire: Database.Statement<[string]>;
  /**
   * The cap of `agent` and how many of its other streams (not `streamId`) run with a live lease
   * at `now` (SPEC WRK-10); no row when the agent has no cap.
   */
  readonly claimCap: Database.Statement<
    [{ agent: string; streamId: string; now: number }],
    { cap: number; running: number }
  >;
  /** The cap of one agent name, for `setCaps`. */
  readonly capOf: Database.Statement<[string], number | undefined>;
  readonly setCap: Database.Statement<[{ agent: string; cap: number; now: number }]>;
  readonly removeCap: Database.Statement<[string]>;
}

/**
 * The writes of the work index, prepared on `db`, which must hold the current schema (a store
 * opened for writing migrated it; one opened read-only prepares none of these). `head` is the
 * first read of an append: its last revision and its work row in one statement, since the fence
 * must be judged on the row inside the append's transaction and the revision was read there
 * anyway (one statement as before, two key lookups).
 *
 * `since` changes only when the status does, so it is when the stream entered its status; the
 * upsert leaves a row that already says what the entry says as it is (`updated` is when the row
 * last changed), since rewriting it dirties the work table's pages and indexes: half the cost of a
 * commit on SQLite (docs/performance.md). An upsert without a fence keeps the row's (a claim alone
 * sets it, SPEC WRK-8), also when it rewrites the status, owner or lease.
 */
export function prepareSqliteWorkWrites(db: Database.Database): SqliteWorkWrites {
  return {
    head: db.prepare(`
      SELECT (SELECT max(revision) FROM agentlog_events WHERE stream_id = head.id) AS last,
        work.status, work.agent, work.owner, work.lease_until, work.fence
      FROM (SELECT ? AS id) AS head LEFT JOIN agentlog_work AS work ON work.stream_id = head.id`),
    upsert: db.prepare(`
      INSERT INTO agentlog_work
        (stream_id, status, agent, owner, lease_until, fence, since, updated)
      VALUES (@streamId, @status, @agent, @owner, @leaseUntil, @fence, @now, @now)
      ON CONFLICT (stream_id) DO UPDATE SET
        since = CASE WHEN status = excluded.status THEN since ELSE excluded.since END,
        status = excluded.status,
        agent = coalesce(excluded.agent, agent),
        owner = excluded.owner,
        lease_until = excluded.lease_until,
        fence = coalesce(excluded.fence, fence),
        updated = excluded.updated
      WHERE status IS NOT excluded.status
        OR owner IS NOT excluded.owner
        OR lease_until IS NOT excluded.lease_until
        OR (excluded.agent IS NOT NULL AND agent IS NOT excluded.agent)
        OR (excluded.fence IS NOT NULL AND fence IS NOT excluded.fence)`),
    renew: db.prepare(`
      UPDATE agentlog_work SET lease_until = @leaseUntil, updated = @now
      WHERE stream_id = @streamId AND owner = @owner AND status = 'running'
        AND (@fence IS NULL OR fence = @fence)`),
    heartbeat: db.prepare(`
      INSERT INTO agentlog_workers (id, host, pid, started_at, heartbeat_at, runs, agents)
      VALUES (@id, @host, @pid, @now, @now, @runs, @agents)
      ON CONFLICT (id) DO UPDATE SET
        host = excluded.host, pid = excluded.pid, heartbeat_at = excluded.heartbeat_at,
        runs = excluded.runs, agents = excluded.agents`),
    retire: db.prepare('DELETE FROM agentlog_workers WHERE id = ?'),
    claimCap: db.prepare(`
      SELECT caps.cap, (
        SELECT count(*) FROM agentlog_work AS work
        WHERE work.status = 'running' AND work.agent = caps.agent
          AND (work.lease_until IS NULL OR work.lease_until > @now)
          AND work.stream_id <> @streamId
      ) AS running
      FROM agentlog_caps AS caps WHERE caps.agent = @agent`),
    capOf: db
      .prepare('SELECT cap FROM agentlog_caps WHERE agent = ?')
      .pluck() as Database.Statement<[string], number | undefined>,
    setCap: db.prepare(`
      INSERT INTO agentlog_caps (agent, cap, updated) VALUES (@agent, @cap, @now)
      ON CONFLICT (agent) DO UPDATE SET cap = excluded.cap, updated = excluded.updated`),
    removeCap: db.prepare('DELETE FROM agentlog_caps WHERE agent = ?'),
  };
}
