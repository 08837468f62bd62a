import type Database from 'better-sqlite3';
import { idleButWaitingSql, storedSchemaVersion } from './migrateAgentlogSchema.js';
import { findWorkSql, unservedWorkSql } from './findWorkSql.js';

/** A row of `agentlog_work` as `workOf` reads it. */
export interface SqliteWorkRow {
  readonly stream_id: string;
  readonly status: string;
  readonly agent: string | null;
  readonly owner: string | null;
  readonly lease_until: number | null;
  /** NULL until a claim, and in a database older than schema version 4. */
  readonly fence: number | null;
}

/** A row of `agentlog_workers`. */
export interface SqliteWorkerRow {
  readonly id: string;
  readonly host: string;
  readonly pid: number;
  readonly started_at: number;
  readonly heartbeat_at: number;
  readonly runs: string;
  /** A JSON array; NULL when the worker said none, and in a database older than version 4. */
  readonly agents: string | null;
}

/** A row `findWork` and `unservedWork` select. */
export interface SqliteFoundRow {
  readonly stream_id: string;
  readonly status: string;
  readonly agent: string | null;
  readonly owner: string | null;
  readonly since: number;
}

/** The reads of a SQLite store's work index; see `prepareSqliteWorkReads`. */
export interface SqliteWorkReads {
  /** `agents` a JSON array. */
  readonly find: Database.Statement<
    [{ agents: string; now: number; limit: number }],
    SqliteFoundRow
  >;
  /** `agents` a JSON array: the names whose streams are left out. */
  readonly unserved: Database.Statement<
    [{ agents: string; now: number; limit: number }],
    SqliteFoundRow
  >;
  /** Heartbeats at or after this time. */
  readonly workers: Database.Statement<[number], SqliteWorkerRow>;
  /** Stream ids as a JSON array. */
  readonly workOf: Database.Statement<[string], SqliteWorkRow>;
  readonly allWork: Database.Statement<[], SqliteWorkRow>;
  /** The caps per agent name (SPEC WRK-10); none before schema version 5. */
  readonly caps: Database.Statement<[], { agent: string; cap: number }>;
}

/**
 * The reads of the work index, prepared on `db` (which must hold schema version 2 or later):
 * `findWork`, `unservedWork`, the workers and the entries. A store opened read-only does not
 * migrate its file, so the reads take the schema as they find it: on a version 2 database they
 * show as `waiting` the `idle` rows of streams that wait for a person, as the migration to version
 * 3 would write them; before version 4 they read no fence and no agent names (NULL); before version
 * 5 no caps.
 */
export function prepareSqliteWorkReads(db: Database.Database): SqliteWorkReads {
  const version = storedSchemaVersion(db);
  const status =
    version < 3
      ? `CASE WHEN ${idleButWaitingSql} THEN 'waiting' ELSE status END AS status`
      : 'status';
  const fence = version < 4 ? 'NULL AS fence' : 'fence';
  const agents = version < 4 ? 'NULL AS agents' : 'agents';
  const columns = `stream_id, ${status}, agent, owner, lease_until, ${fence}`;
  const caps = version < 5 ? '(SELECT NULL AS agent, NULL AS cap WHERE 0)' : 'agentlog_caps';
  return {
    find: db.prepare(findWorkSql(caps)),
    unserved: db.prepare(unservedWorkSql),
    workers: db.prepare(
      `SELECT id, host, pid, started_at, heartbeat_at, runs, ${agents} FROM agentlog_workers WHERE heartbeat_at >= ? ORDER BY started_at, id`,
    ),
    workOf: db.prepare(
      `SELECT ${columns} FROM agentlog_work WHERE stream_id IN (SELECT value FROM json_each(?))`,
    ),
    allWork: db.prepare(`SELECT ${columns} FROM agentlog_work ORDER BY stream_id`),
    caps: db.prepare(`SELECT agent, cap FROM ${caps} AS caps ORDER BY agent`),
  };
}
