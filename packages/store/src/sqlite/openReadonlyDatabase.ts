import { Buffer } from 'node:buffer';
import {
  chmodSync,
  closeSync,
  copyFileSync,
  existsSync,
  mkdtempSync,
  openSync,
  readSync,
  rmSync,
  statSync,
  writeSync,
  type Stats,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
  /** The temporary folder that holds the copy, removed with the connection. */
  readonly folder?: string;
}

/**
 * Opens the agentlog database at `path` read-only, writing nothing in it or beside it: no schema
 * is created or migrated, and a missing file, a file without the agentlog schema or of another
 * application is refused (`'notAgentlogDatabase'`) naming the path. While another process has
 * the file open (its `-wal` file exists), SQLite reads it in place, never waiting for the write
 * lock; when none has (no `-wal` file), SQLite would create the `-wal` and `-shm` files to read a
 * WAL database, so the file is copied to a temporary folder and read there instead (a copy on
 * disk, not in memory: reading a large file costs no memory for its size), and read again in
 * place (or copied again) as soon as a writer shows up or the file changes. The copy is removed
 * when the view is closed or replaced.
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
      release(connection);
      throw error;
    }
  };
  let connection = connect();
  return {
    current() {
      const copied = connection.copied;
      if (copied !== undefined && (existsSync(wal) || changed(copied, statSync(path)))) {
        const next = connect();
        release(connection);
        connection = next;
      }
      return connection.db;
    },
    close() {
      release(connection);
    },
  };
}

/**
 * A connection on a copy of the file in a temporary folder, taken while no writer has it open
 * (undefined once one has: the file is then read in place). The copy is marked as a
 * rollback-journal database (header bytes 18 and 19), since SQLite reads a WAL database only
 * beside its `-wal` file, and opened read-only; the file itself is not touched.
 */
function copy(path: string, wal: string): Connection | undefined {
  for (;;) {
    const before = statSync(path);
    // An empty file holds no schema; inspecting an empty database says so.
    if (before.size === 0) return { db: new Database(':memory:'), copied: before };
    const folder = mkdtempSync(join(tmpdir(), 'agentlog-readonly-'));
    const copied = join(folder, 'copy.db');
    try {
      copyFileSync(path, copied);
      // The copy keeps the file's mode (a read-only file gives a read-only copy): it is ours.
      chmodSync(copied, 0o600);
      // A writer opened the file meanwhile: read it in place.
      if (existsSync(wal)) {
        rmSync(folder, { recursive: true, force: true });
        return undefined;
      }
      // A writer came and went while the file was copied: copy it again.
      if (changed(before, statSync(path))) {
        rmSync(folder, { recursive: true, force: true });
        continue;
      }
      markRollbackJournal(copied);
      return {
        db: new Database(copied, { readonly: true, fileMustExist: true }),
        copied: before,
        folder,
      };
    } catch (error) {
      rmSync(folder, { recursive: true, force: true });
      throw error;
    }
  }
}

/** Sets the file format bytes of a WAL database (2, 2) to a rollback-journal one (1, 1). */
function markRollbackJournal(file: string): void {
  const fd = openSync(file, 'r+');
  try {
    const header = Buffer.alloc(2);
    if (readSync(fd, header, 0, 2, 18) === 2 && header[0] === 2 && header[1] === 2) {
      writeSync(fd, Buffer.from([1, 1]), 0, 2, 18);
    }
  } finally {
    closeSync(fd);
  }
}

/** Closes a connection and removes its copy, if it has one. */
function release(connection: Connection): void {
  connection.db.close();
  if (connection.folder !== undefined) rmSync(connection.folder, { recursive: true, force: true });
}

function changed(before: Stats, after: Stats): boolean {
  return before.size !== after.size || before.mtimeMs !== after.mtimeMs || before.ino !== after.ino;
}
