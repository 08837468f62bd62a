import type Database from 'better-sqlite3';

/** A stored event as the reads return it: its revision column and its JSON. */
export type StoredRow = [revision: number, event: string];

/** The statements a SQLite store runs; see `prepareSqliteStatements`. */
export interface SqliteStatements {
  readonly last: Database.Statement<[string], number | null>;
  readonly storedId: Database.Statement<[string, string], number | undefined>;
  readonly insert: Database.Statement<[string, number, string, string, string]>;
  readonly deleteAbove: Database.Statement<[string, number]>;
  readonly forwards: Database.Statement<[string, number, number], StoredRow>;
  readonly backwards: Database.Statement<[string, number, number], StoredRow>;
  readonly nextAbove: Database.Statement<[string, number], number | null>;
  readonly typeAt: Database.Statement<[string, number], string>;
  readonly streams: Database.Statement<[], string>;
  readonly dataVersion: Database.Statement<[], number>;
}

/**
 * The statements a SQLite store runs, prepared on `db`: the last revision and the stored ids of a
 * stream, the insert and its undo, forward and backward pages, the next revision above a gap, the type of one
 * event, the stream list and `PRAGMA data_version`.
 */
export function prepareSqliteStatements(db: Database.Database): SqliteStatements {
  return {
    last: db
      .prepare('SELECT max(revision) FROM agentlog_events WHERE stream_id = ?')
      .pluck() as Database.Statement<[string], number | null>,
    // An indexed lookup of one id (UNIQUE (stream_id, event_id)): judgeAppend asks per id.
    storedId: db
      .prepare('SELECT revision FROM agentlog_events WHERE stream_id = ? AND event_id = ?')
      .pluck() as Database.Statement<[string, string], number | undefined>,
    insert: db.prepare<[string, number, string, string, string]>(
      'INSERT INTO agentlog_events (stream_id, revision, event_id, type, event) VALUES (?, ?, ?, ?, ?)',
    ),
    // Undoes, inside its transaction, the inserts of an append that must be decided id by id.
    deleteAbove: db.prepare<[string, number]>(
      'DELETE FROM agentlog_events WHERE stream_id = ? AND revision > ?',
    ),
    forwards: db
      .prepare(
        'SELECT revision, event FROM agentlog_events WHERE stream_id = ? AND revision >= ? ORDER BY revision LIMIT ?',
      )
      .raw() as Database.Statement<[string, number, number], StoredRow>,
    backwards: db
      .prepare(
        'SELECT revision, event FROM agentlog_events WHERE stream_id = ? AND revision <= ? ORDER BY revision DESC LIMIT ?',
      )
      .raw() as Database.Statement<[string, number, number], StoredRow>,
    nextAbove: db
      .prepare('SELECT min(revision) FROM agentlog_events WHERE stream_id = ? AND revision > ?')
      .pluck() as Database.Statement<[string, number], number | null>,
    typeAt: db
      .prepare('SELECT type FROM agentlog_events WHERE stream_id = ? AND revision = ?')
      .pluck() as Database.Statement<[string, number], string>,
    streams: db
      .prepare('SELECT stream_id FROM agentlog_events WHERE revision = 0 ORDER BY position')
      .pluck() as Database.Statement<[], string>,
    dataVersion: db.prepare('PRAGMA data_version').pluck() as Database.Statement<[], number>,
  };
}
