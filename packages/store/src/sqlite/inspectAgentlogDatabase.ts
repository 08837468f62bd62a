import { closeSync, openSync, readSync, statSync, type Stats } from 'node:fs';
import type Database from 'better-sqlite3';
import { AgentlogError } from '@agentlog/core';
import { agentlogApplicationId, sqliteSchemaVersion } from './agentlogSchema.js';

const sqliteMagic = Buffer.from('SQLite format 3\0', 'latin1');

/**
 * What the database on `db` (the file `path`) is, read in one transaction so that a process laying
 * out the schema at the same moment is seen before or after, never half way: `'empty'` (no
 * schema, no application id) or `'agentlog'`. Throws `'notAgentlogDatabase'` for an SQLite
 * database of another application and `'newerSchema'` for one written by a newer agentlog.
 */
export function inspectAgentlogDatabase(db: Database.Database, path: string): 'empty' | 'agentlog' {
  // Inside a transaction already (the caller's immediate one), the reads share it.
  return db.inTransaction ? inspect(db, path) : db.transaction(() => inspect(db, path)).deferred();
}

/**
 * Checks the 16-byte header of the file at `path` without SQLite, which would otherwise treat any
 * file as its own: a folder, or a file that is neither empty nor an SQLite database, is refused
 * with `'notAgentlogDatabase'`. A missing file passes; `missing` is then true.
 */
export function refuseNonSqliteFile(path: string): { missing: boolean } {
  let stats: Stats;
  try {
    stats = statSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { missing: true };
    throw error;
  }
  if (!stats.isFile()) throw notAgentlogDatabase(path, 'it is not a file');
  // An empty file is what SQLite itself makes of a new database.
  if (stats.size === 0) return { missing: false };
  const header = Buffer.alloc(sqliteMagic.length);
  const fd = openSync(path, 'r');
  try {
    readSync(fd, header, 0, header.length, 0);
  } finally {
    closeSync(fd);
  }
  if (!header.equals(sqliteMagic)) throw notAgentlogDatabase(path, 'it is not an SQLite database');
  return { missing: false };
}

/** `'notAgentlogDatabase'`: `path` is not an agentlog database, `why`, and it was left as it was. */
export function notAgentlogDatabase(
  path: string,
  why: string,
  cause?: unknown,
): AgentlogError<'notAgentlogDatabase'> {
  const detail = cause instanceof Error ? ` (${cause.message})` : '';
  return new AgentlogError(
    'notAgentlogDatabase',
    `${path} is not an agentlog database: ${why}${detail}; nothing was changed in it`,
    cause === undefined ? undefined : { cause },
  );
}

function inspect(db: Database.Database, path: string): 'empty' | 'agentlog' {
  let applicationId: number;
  let objects: number;
  try {
    applicationId = db.pragma('application_id', { simple: true }) as number;
    objects = db.prepare('SELECT count(*) FROM sqlite_schema').pluck().get() as number;
  } catch (error) {
    if (!isNotADatabase(error)) throw error;
    throw notAgentlogDatabase(path, 'SQLite cannot read it', error);
  }
  if (applicationId === 0 && objects === 0) return 'empty';
  if (applicationId !== agentlogApplicationId) {
    throw notAgentlogDatabase(path, 'it is an SQLite database of another application');
  }
  let version: string | undefined;
  try {
    version = db
      .prepare("SELECT value FROM agentlog_meta WHERE key = 'schemaVersion'")
      .pluck()
      .get() as string | undefined;
  } catch (error) {
    throw notAgentlogDatabase(
      path,
      'it is marked as agentlog but has no agentlog_meta table',
      error,
    );
  }
  const number = Number(version);
  if (!Number.isSafeInteger(number) || number < 1) {
    throw notAgentlogDatabase(
      path,
      `its schema version ${String(version)} is not one agentlog wrote`,
    );
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
