import type { NewStreamEvent } from '@agentlog/core';
import type { AppendVerdict } from '@agentlog/core/store-kit';
import { isUniqueViolation } from './isUniqueViolation.js';
import type { SqliteStatements } from './prepareSqliteStatements.js';

/** A `write` verdict of `judgeAppend`: which events, from which revision. */
export type SqliteWrite = Extract<AppendVerdict, { kind: 'write' }>;

/**
 * Inserts the events `write` names, in order, at consecutive revisions, inside the caller's
 * transaction. With `hypothesis` (the write was decided as if the stream held none of the offered
 * ids, unchecked), a refusal of `UNIQUE (stream_id, event_id)` for an id the stream holds deletes
 * the rows this call inserted and returns false: the stream is as it was, and the append must be
 * decided again with a lookup per id. Any other refusal is thrown as it is.
 */
export function insertSqliteEvents(
  sql: SqliteStatements,
  streamId: string,
  events: readonly NewStreamEvent[],
  write: SqliteWrite,
  hypothesis: boolean,
): boolean {
  const { indexes, firstRevision } = write;
  for (let offset = 0; offset < indexes.length; offset += 1) {
    const event = events[indexes[offset] as number] as NewStreamEvent;
    try {
      insert(sql, streamId, event, firstRevision + offset);
    } catch (error) {
      if (!hypothesis || !isUniqueViolation(error)) throw error;
      if (sql.storedId.get(streamId, event.metadata.eventId) === undefined) throw error;
      if (offset > 0) sql.deleteAbove.run(streamId, firstRevision - 1);
      return false;
    }
  }
  return true;
}

function insert(
  sql: SqliteStatements,
  streamId: string,
  { type, data, metadata }: NewStreamEvent,
  revision: number,
): void {
  // The whole event as JSON, revision included, so that a read parses one text per event.
  const event = JSON.stringify({ type, data, metadata: { ...metadata, revision } });
  sql.insert.run(streamId, revision, metadata.eventId, type, event);
}
