import type Database from 'better-sqlite3';
import {
  agentlogCapsTable,
  agentlogWorkIndexes,
  agentlogWorkSchema,
  agentlogWorkTable,
  sqliteSchemaVersion,
} from './agentlogSchema.js';

/** The schema version an agentlog database holds (its `agentlog_meta` row; checked on open). */
export function storedSchemaVersion(db: Database.Database): number {
  return Number(
    db.prepare("SELECT value FROM agentlog_meta WHERE key = 'schemaVersion'").pluck().get(),
  );
}

/**
 * Brings an agentlog database of an older schema version up to `sqliteSchemaVersion`, in place,
 * in one immediate transaction that reads the version again first (another process may have
 * migrated it meanwhile). Version 1 to 2 adds the work index and the workers table (in their
 * current shape); version 2 to 3 rebuilds the work table to allow the `waiting` status
 * (`addWaitingStatus`); version 3 to 4 adds the fencing token and the workers' agent names
 * (`addFences`); version 4 to 5 adds the caps table, empty (no agent name has a cap yet). The
 * events are not touched. Does nothing to a current database, and takes no write lock then.
 */
export function migrateAgentlogSchema(db: Database.Database): void {
  if (storedSchemaVersion(db) >= sqliteSchemaVersion) return;
  db.transaction(() => {
    const version = storedSchemaVersion(db);
    if (version >= sqliteSchemaVersion) return;
    if (version < 2) db.exec(agentlogWorkSchema);
    else {
      if (version < 3) addWaitingStatus(db);
      if (version < 4) addFences(db, version);
      db.exec(agentlogCapsTable);
    }
    db.prepare("UPDATE agentlog_meta SET value = ? WHERE key = 'schemaVersion'").run(
      String(sqliteSchemaVersion),
    );
  }).immediate();
}

/**
 * Version 2 to 3, inside the migration's transaction: SQLite cannot change a CHECK, so the work
 * table is built again with `waiting` allowed (a new table, its rows copied, the old one dropped,
 * the new one renamed, its indexes created again). Version 2 wrote `idle` for a stream that waits
 * for a person; such a row becomes `waiting` when the stream's last run start or stop is a stop
 * for feedback (`AgentStopped` with reason `feedbackRequired`), so the inbox finds it. A row this
 * judges wrongly costs the inbox one fold that finds no call, and the stream's next append
 * rewrites it.
 */
function addWaitingStatus(db: Database.Database): void {
  db.exec(`
    ${agentlogWorkTable('agentlog_work_v3')}
    INSERT INTO agentlog_work_v3 (stream_id, status, agent, owner, lease_until, since, updated)
      SELECT stream_id, status, agent, owner, lease_until, since, updated FROM agentlog_work;
    DROP TABLE agentlog_work;
    ALTER TABLE agentlog_work_v3 RENAME TO agentlog_work;
    ${agentlogWorkIndexes}
    UPDATE agentlog_work SET status = 'waiting' WHERE ${idleButWaitingSql};
  `);
}

/**
 * Version 3 to 4, inside the migration's transaction: the work table gets `fence` (the token of
 * the stream's last claim, SPEC WRK-8) and the workers table `agents` (SPEC WRK-9), both NULL in
 * the rows there are: no stream was claimed under a fence yet, and no worker said its names. Adding
 * a column that may be NULL rewrites only the schema, not a row, so it costs the same on any store.
 * A version 2 database comes here with its work table already rebuilt by `addWaitingStatus` in the
 * current shape, `fence` included.
 */
function addFences(db: Database.Database, version: number): void {
  if (version >= 3) db.exec('ALTER TABLE agentlog_work ADD COLUMN fence INTEGER');
  db.exec('ALTER TABLE agentlog_workers ADD COLUMN agents TEXT');
}

/**
 * True (SQL, on a row of `agentlog_work`) for a row that schema version 2 wrote as `idle` for a
 * stream that waits for a person: its last run start or stop is a stop for feedback. The
 * migration to version 3 rewrites such rows; a read-only store on a version 2 database reads them
 * as `waiting` with it.
 */
export const idleButWaitingSql = `agentlog_work.status = 'idle' AND (
      SELECT json_extract(event, '$.data.reason.kind') FROM agentlog_events
      WHERE agentlog_events.stream_id = agentlog_work.stream_id
        AND type IN ('AgentStopped', 'RunStarted')
      ORDER BY revision DESC LIMIT 1
    ) = 'feedbackRequired'`;

/** True when the database holds the work index (schema version 2 or later). */
export function hasWorkIndex(db: Database.Database): boolean {
  return hasTable(db, 'agentlog_work');
}

/** True when the database holds the caps per agent name (schema version 5 or later). */
export function hasCaps(db: Database.Database): boolean {
  return hasTable(db, 'agentlog_caps');
}

function hasTable(db: Database.Database, name: string): boolean {
  return (
    db
      .prepare("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = ?")
      .pluck()
      .get(name) === 1
  );
}
