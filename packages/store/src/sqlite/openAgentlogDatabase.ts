import { closeSync, mkdirSync, openSync, readSync, statSync, type Stats } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { AgentlogError } from '@agentlog/core';

/** The `PRAGMA application_id` that marks an agentlog database: "AGLG" in ASCII. */
export const agentlogApplicationId = 0x41474c47;

/** The schema version this code writes; a database with a higher one is refused. */
export const sqliteSchemaVersion = 1;

/** How long a connection waits for another process's write lock before it gives up. */
export const busyTimeoutMs = 5_000;

const sqliteMagic = Buffer.from('SQLite format 3\0', 'latin1');

// `position` is the rowid: the global order of appends, which gives streams their creation order.
// `event` is the whole event as JSON, revision included, so a read parses one text per event.
const schema = `
  CREATE TABLE agentlog_meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
  ) STRICT;
  CREATE TABLE agentlog_events (
    position INTEGER PRIMARY KEY,
    stream_id TEXT NOT NULL,
    revision INTEGER NOT NULL,
    event_id TEXT NOT NULL,
    type TEXT NOT NULL,
    event TEXT NOT NULL,
    CONSTRAINT agentlog_events_revision UNIQUE (stream_id, revision),
    CONSTRAINT agentlog_events_event_id UNIQUE (stream_id, event_id)
  ) STRICT;
  CREATE INDEX agentlog_stream_starts ON agentlog_events (position) WHERE revision = 0;
`;

/**
 * Opens (creating it and its folder if needed) the agentlog SQLite database at `path` in WAL
 * mode. Refuses, without changing it, a file that is not an SQLite database or an SQLite database
 * that is not agentlog's (`'notAgentlogDatabase'`), and one written by a newer agentlog
 * (`'newerSchema'`). What the file system or SQLite throws otherwise is thrown as it is.
 */
export function openAgentlogDatabase(path: string): Database.Database {
  const inMemory = path === ':memory:';
  if (!inMemory) {
    mkdirSync(dirname(path), { recursive: true });
    refuseNonSqliteFile(path);
  }
  // A file SQLite cannot open (a folder it may not write, a full disk) is a fault of the store,
  // not a file of another program: createSqliteEventStore reports it as storeUnavailable.
  const db = new Database(path, { timeout: busyTimeoutMs });
  try {
    // Inspect before switching to WAL: that switch writes to the file, which must stay untouched
    // when it is not ours.
    inspect(db, path);
    if (!inMemory) db.pragma('journal_mode = WAL');
    // Immediate, so two processes creating the same new file do not both lay out the schema.
    db.transaction(() => {
      if (inspect(db, path) === 'agentlog') return;
      db.exec(schema);
      db.pragma(`application_id = ${agentlogApplicationId}`);
      db.prepare('INSERT INTO agentlog_meta (key, value) VALUES (?, ?)').run(
        'schemaVersion',
        String(sqliteSchemaVersion),
      );
    }).immediate();
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/** Checks the 16-byte header without SQLite, which would otherwise treat any file as its own. */
function refuseNonSqliteFile(path: string): void {
  let stats: Stats;
  try {
    stats = statSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if (!stats.isFile()) throw notOurs(path, 'it is not a file');
  // An empty file is what SQLite itself makes of a new database.
  if (stats.size === 0) return;
  const header = Buffer.alloc(sqliteMagic.length);
  const fd = openSync(path, 'r');
  try {
    readSync(fd, header, 0, header.length, 0);
  } finally {
    closeSync(fd);
  }
  if (!header.equals(sqliteMagic)) throw notOurs(path, 'it is not an SQLite database');
}

function inspect(db: Database.Database, path: string): 'empty' | 'agentlog' {
  let applicationId: number;
  let objects: number;
  try {
    applicationId = db.pragma('application_id', { simple: true }) as number;
    objects = db.prepare('SELECT count(*) FROM sqlite_schema').pluck().get() as number;
  } catch (error) {
    if (!isNotADatabase(error)) throw error;
    throw notOurs(path, 'SQLite cannot read it', error);
  }
  if (applicationId === 0 && objects === 0) return 'empty';
  if (applicationId !== agentlogApplicationId) {
    throw notOurs(path, 'it is an SQLite database of another application');
  }
  let version: string | undefined;
  try {
    version = db
      .prepare("SELECT value FROM agentlog_meta WHERE key = 'schemaVersion'")
      .pluck()
      .get() as string | undefined;
  } catch (error) {
    throw notOurs(path, 'it is marked as agentlog but has no agentlog_meta table', error);
  }
  const number = Number(version);
  if (!Number.isSafeInteger(number) || number < 1) {
    throw notOurs(path, `its schema version ${String(version)} is not one agentlog wrote`);
  }
  if (number > sqliteSchemaVersion) {
    throw new AgentlogError(
      'newerSchema',
      `${path} has agentlog schema version ${number}, newer than ${sqliteSchemaVersion} which this agentlog knows: upgrade agentlog to open it`,
    );
  }
  return 'agentlog';
}

/** SQLite's verdict on a file that is not a database it can read, as opposed to a failing disk. */
function isNotADatabase(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return (
    typeof code === 'string' && (code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT'))
  );
}

function notOurs(path: string, why: string, cause?: unknown): AgentlogError<'notAgentlogDatabase'> {
  const detail = cause instanceof Error ? ` (${cause.message})` : '';
  return new AgentlogError(
    'notAgentlogDatabase',
    `${path} is not an agentlog database: ${why}${detail}; nothing was changed in it`,
    cause === undefined ? undefined : { cause },
  );
}
