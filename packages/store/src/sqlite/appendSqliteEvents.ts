import type { ExpectedRevision, NewStreamEvent } from '@agentlog/core';
import { decideAppend, satisfiesExpectedRevision } from '@agentlog/core/store-kit';
import { isUniqueViolation } from './isUniqueViolation.js';
import type { SqliteStatements } from './prepareSqliteStatements.js';

/** What an append did: the stream's last revision before it and after it (equal: nothing stored). */
export interface SqliteAppended {
  readonly last: number;
  readonly revision: number;
}

/**
 * Writes `events` to `streamId` as `decideAppend` decides, inside the caller's immediate
 * transaction; throws the `ConcurrencyError` of a conflict (the caller rolls back).
 *
 * When the expectation holds, the events are inserted at once, without a lookup per id: the
 * UNIQUE (stream_id, event_id) constraint checks that no offered id is stored already or offered
 * twice, which is the case of every append of a running agent. If it refuses one, the rows this
 * append inserted are deleted and the append is decided with a lookup per id (`decideAppend`: a
 * retry of stored events, or a batch that repeats or holds stored ids), as if the fast path had not
 * been tried. Any other refusal is thrown as it is.
 */
export function appendSqliteEvents(
  sql: SqliteStatements,
  streamId: string,
  events: readonly NewStreamEvent[],
  expected: ExpectedRevision,
): SqliteAppended {
  const actual = sql.last.get(streamId) ?? 'noStream';
  const last = actual === 'noStream' ? -1 : actual;
  if (satisfiesExpectedRevision(expected, actual) && insertedAll(sql, streamId, events, last))
    return { last, revision: last + events.length };
  const decision = decideAppend(
    { streamId, last: actual, revisionOf: (id) => sql.storedId.get(streamId, id) },
    events.map((event) => event.metadata.eventId),
    expected,
  );
  if (decision.kind === 'conflict') throw decision.error;
  if (decision.kind === 'alreadyStored') return { last, revision: last };
  decision.indexes.forEach((index, offset) => {
    insert(sql, streamId, events[index] as NewStreamEvent, decision.firstRevision + offset);
  });
  return { last, revision: decision.nextExpectedRevision };
}

/**
 * Inserts every event from `last + 1` on; false, with the stream as it was, when one of their ids
 * is stored already or offered twice.
 */
function insertedAll(
  sql: SqliteStatements,
  streamId: string,
  events: readonly NewStreamEvent[],
  last: number,
): boolean {
  for (let index = 0; index < events.length; index += 1) {
    const event = events[index] as NewStreamEvent;
    try {
      insert(sql, streamId, event, last + 1 + index);
    } catch (error) {
      if (!isUniqueViolation(error) || !isStoredId(sql, streamId, event.metadata.eventId))
        throw error;
      if (index > 0) sql.deleteAbove.run(streamId, last);
      return false;
    }
  }
  return true;
}

/** Whether the stream holds the id: an offered twice id is stored by its first insert. */
function isStoredId(sql: SqliteStatements, streamId: string, eventId: string): boolean {
  return sql.storedId.get(streamId, eventId) !== undefined;
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
