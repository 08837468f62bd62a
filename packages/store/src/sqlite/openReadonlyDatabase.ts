import { existsSync, readFileSync, statSync, type Stats } from 'node:fs';
import Database from 'better-sqlite3';
import {
  inspectAgentlogDatabase,
  notAgentlogDatabase,
  refuseNonSqliteFile,
} from './inspectAgentlogDatabase.js';

/** A read-only view of an agentlog database file; see `openReadonlyDatabase`. */
export interface ReadonlyDatabase {
  /** The connection to read with now: a copy of the file is replaced once the file changes. */
  current(): Database.Database;
  close(): void;
}

interface Connection {
  readonly db: Database.Database;
  /** The file as it was copied, for a connection on a copy; undefined for one on the file. */
  readonly copied?: Stats;
}

/**
 * Opens the agentlog database at `path` read-only, writing nothing in it or beside it: no schema
 * is created or migrated, and a missing file, a file without the agentlog schema or of another
 * application is refused (`'notAgentlogDatabase'`) naming the path. While another process has
 * the file open (its `-wal` file exists), SQLite reads it in place, never waiting for the write
 * lock; when none has (no `-wal` file), SQLite would create the `-wal` and `-shm` files to read a
 * WAL database, so the file is read into memory instead, and read again in place (or copied
 * again) as soon as a writer shows up or the file changes.
 */
export function openReadonlyDatabase(path: string, timeoutMs: number): ReadonlyDatabase {
  if (refuseNonSqliteFile(path).missing) {
    throw notAgentlogDatabase(
      path,
      'there is no such file, and a store opened read-only creates none',
    );
  }
  const wal = `${path}-wal`;
  const connect = (): Connection => {
    const connection = (existsSync(wal) ? undefined : copy(path, wal)) ?? {
      db: new Database(path, { readonly: true, fileMustExist: true, timeout: timeoutMs }),
    };
    try {
      if (inspectAgentlogDatabase(connection.db, path) === 'empty') {
        throw notAgentlogDatabase(
          path,
          'it holds no agentlog schema, and a store opened read-only creates none',
        );
      }
      return connection;
    } catch (error) {
      connection.db.close();
      throw error;
    }
  };
  let connection = connect();
  return {
    current() {
      const copied = connection.copied;
      if (copied !== undefined && (existsSync(wal) || changed(copied, statSync(path)))) {
        const next = connect();
        connection.db.close();
        connection = next;
      }
      return connection.db;
    },
    close() {
      connection.db.close();
    },
  };
}

/**
 * A connection on an in-memory copy of the file, taken while no writer has it open (undefined
 * once one has: the file is then read in place). The copy is
 * marked as a rollback-journal database (header bytes 18 and 19), since SQLite reads a WAL
 * database only beside its `-wal` file; the file itself is not touched.
 */
function copy(path: string, wal: string): Connection | undefined {
  for (;;) {
    const before = statSync(path);
    const bytes = readFileSync(path);
    // A writer opened the file meanwhile: read it in place.
    if (existsSync(wal)) return undefined;
    // A writer came and went while the file was read: read it again.
    if (changed(before, statSync(path))) continue;
    // An empty file holds no schema; inspecting an empty database says so.
    if (bytes.length === 0) return { db: new Database(':memory:'), copied: before };
    if (bytes.length >= 20 && bytes[18] === 2 && bytes[19] === 2) {
      bytes[18] = 1;
      bytes[19] = 1;
    }
    return { db: new Database(bytes, { readonly: true }), copied: before };
  }
}

function changed(before: Stats, after: Stats): boolean {
  return before.size !== after.size || before.mtimeMs !== after.mtimeMs || before.ino !== after.ino;
}
