import type Database from 'better-sqlite3';
import { agentlogWorkSchema, sqliteSchemaVersion } from './agentlogSchema.js';

/** The schema version an agentlog database holds (its `agentlog_meta` row; checked on open). */
export function storedSchemaVersion(db: Database.Database): number {
  return Number(
    db.prepare("SELECT value FROM agentlog_meta WHERE key = 'schemaVersion'").pluck().get(),
  );
}

/**
 * Brings an agentlog database of an older schema version up to `sqliteSchemaVersion`, in place,
 * in one immediate transaction that reads the version again first (another process may have
 * migrated it meanwhile). Version 1 to 2 adds the work index and the workers table; the events are
 * not touched. Does nothing to a current database, and takes no write lock then.
 */
export function migrateAgentlogSchema(db: Database.Database): void {
  if (storedSchemaVersion(db) >= sqliteSchemaVersion) return;
  db.transaction(() => {
    const version = storedSchemaVersion(db);
    if (version >= sqliteSchemaVersion) return;
    if (version < 2) db.exec(agentlogWorkSchema);
    db.prepare("UPDATE agentlog_meta SET value = ? WHERE key = 'schemaVersion'").run(
      String(sqliteSchemaVersion),
    );
  }).immediate();
}

/** True when the database holds the work index (schema version 2 or later). */
export function hasWorkIndex(db: Database.Database): boolean {
  return (
    db
      .prepare("SELECT count(*) FROM sqlite_schema WHERE type = 'table' AND name = 'agentlog_work'")
      .pluck()
      .get() === 1
  );
}
