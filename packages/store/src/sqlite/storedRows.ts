import type Database from 'better-sqlite3';
import type { StoredRow } from './prepareSqliteStatements.js';

/** The most rows a read takes from SQLite in one call (`.all()`) rather than one at a time. */
export const rowsAtOnce = 5_000;

/**
 * The rows a page statement (`streamId`, a revision, `maxCount`; a negative `maxCount` reads to
 * the end) returns: all at once when the page is at most `rowsAtOnce` rows, since stepping costs
 * a call into SQLite per row (about a quarter of reading a row); otherwise one at a time as the
 * statement steps, so that a read of a whole long stream never holds all its text as well as its
 * events.
 */
export function storedRows(
  statement: Database.Statement<[string, number, number], StoredRow>,
  streamId: string,
  revision: number,
  maxCount: number,
): Iterable<StoredRow> {
  return maxCount >= 0 && maxCount <= rowsAtOnce
    ? statement.all(streamId, revision, maxCount)
    : statement.iterate(streamId, revision, maxCount);
}
