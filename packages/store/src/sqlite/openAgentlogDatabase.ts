import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { agentlogApplicationId, agentlogSchema, sqliteSchemaVersion } from './agentlogSchema.js';
import { migrateAgentlogSchema } from './migrateAgentlogSchema.js';
import { inspectAgentlogDatabase, refuseNonSqliteFile } from './inspectAgentlogDatabase.js';

/** How long a connection waits for another process's locks before it gives up, by default. */
export const busyTimeoutMs = 5_000;

/**
 * Opens (creating it and its folder if needed) the agentlog SQLite database at `path` in WAL
 * mode. Refuses, without changing it, a file that is not an SQLite database or an SQLite database
 * that is not agentlog's (`'notAgentlogDatabase'`), and one written by a newer agentlog
 * (`'newerSchema'`). A database that holds the schema opens without the write lock; a new one is
 * laid out in one immediate transaction that checks it again, so of several processes opening one
 * new file at once one lays it out and all open it. Waiting for other processes' locks takes at
 * most `timeoutMs` in all. A database of an older agentlog schema is migrated in place
 * (`migrateAgentlogSchema`). What the file system or SQLite throws otherwise is thrown as it is.
 */
export function openAgentlogDatabase(path: string, timeoutMs = busyTimeoutMs): Database.Database {
  const deadline = Date.now() + timeoutMs;
  const inMemory = path === ':memory:';
  if (!inMemory) {
    mkdirSync(dirname(path), { recursive: true });
    refuseNonSqliteFile(path);
  }
  // A file SQLite cannot open (a folder it may not write, a full disk) is a fault of the store,
  // not a file of another program: createSqliteEventStore reports it as storeUnavailable.
  const db = new Database(path, { timeout: timeoutMs });
  try {
    // Inspect before switching to WAL: that switch writes to the file, which must stay untouched
    // when it is not ours.
    const found = inspectAgentlogDatabase(db, path);
    if (!inMemory) switchToWal(db, deadline);
    if (found === 'empty') layOutSchema(db, path, deadline, timeoutMs);
    else migrate(db, deadline, timeoutMs);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/**
 * Puts the file in WAL mode. SQLite answers SQLITE_BUSY at once, without its busy handler, while
 * another connection of a new file still reads it in rollback mode: try again until `deadline`.
 */
function switchToWal(db: Database.Database, deadline: number): void {
  if (db.pragma('journal_mode', { simple: true }) === 'wal') return;
  for (;;) {
    let failure: unknown;
    try {
      const mode = db.pragma('journal_mode = WAL', { simple: true }) as string;
      if (mode === 'wal') return;
      failure = new Error(`SQLite kept the journal mode ${mode} instead of switching to WAL`);
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'SQLITE_BUSY') throw error;
      failure = error;
    }
    const left = deadline - Date.now();
    if (left <= 0) throw failure;
    // A random pause, so that two processes switching at once do not keep colliding.
    sleepSync(Math.min(left, 5 + Math.random() * 20));
  }
}

/**
 * Creates the schema in an immediate transaction that reads the file again first: another process
 * may have laid it out since the first look. Waits for the write lock only until `deadline`.
 */
function layOutSchema(
  db: Database.Database,
  path: string,
  deadline: number,
  timeoutMs: number,
): void {
  db.pragma(`busy_timeout = ${Math.max(0, deadline - Date.now())}`);
  try {
    db.transaction(() => {
      if (inspectAgentlogDatabase(db, path) === 'agentlog') return;
      db.exec(agentlogSchema);
      db.pragma(`application_id = ${agentlogApplicationId}`);
      db.prepare('INSERT INTO agentlog_meta (key, value) VALUES (?, ?)').run(
        'schemaVersion',
        String(sqliteSchemaVersion),
      );
    }).immediate();
  } finally {
    db.pragma(`busy_timeout = ${timeoutMs}`);
  }
}

/** Migrates an older agentlog schema in place, waiting for the write lock only until `deadline`. */
function migrate(db: Database.Database, deadline: number, timeoutMs: number): void {
  db.pragma(`busy_timeout = ${Math.max(0, deadline - Date.now())}`);
  try {
    migrateAgentlogSchema(db);
  } finally {
    db.pragma(`busy_timeout = ${timeoutMs}`);
  }
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
