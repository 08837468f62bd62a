import { InvalidEventError } from '@agentlog/core';
import { assertRevisionOption, assertValidStreamId } from '@agentlog/core/store-kit';
import type { ReadStreamOptions, StreamEvent } from '@agentlog/core';
import {
  assertNoRevisionGap,
  guardStore,
  jsonProblem,
  revisionJump,
  streamOf,
  streamWhere,
} from '../storeErrors.js';
import { assertPostgresText } from './postgresAppend.js';
import type { PostgresStoreContext } from './postgresStoreContext.js';

interface EventRow {
  readonly revision: string;
  readonly type: string;
  readonly data: string;
  readonly metadata: string;
}

/**
 * Reads the events of a stream of a PostgreSQL store (its `readStream`), forwards or backwards
 * from `fromRevision`, at most `maxCount` of them. A row that is not an event, or a revision
 * missing among the ones read (a deleted row), is an error naming the schema, the stream and the
 * revision; a fault of the server or the connection is `AgentError('storeUnavailable')`.
 */
export async function postgresRead(
  context: PostgresStoreContext,
  streamId: string,
  options: ReadStreamOptions,
): Promise<StreamEvent[]> {
  assertValidStreamId(streamId);
  assertPostgresText(streamId);
  assertRevisionOption('fromRevision', options.fromRevision);
  assertRevisionOption('maxCount', options.maxCount);
  const rows = await guardStore(streamWhere(context.label, streamId), 'the read failed', () =>
    readRows(context, streamId, options),
  );
  const events = rows.map((row) => toStreamEvent(row, streamId, context.label));
  assertNoRevisionGap(streamId, context.label, events, options);
  return events;
}

async function readRows(
  context: PostgresStoreContext,
  streamId: string,
  options: ReadStreamOptions,
): Promise<EventRow[]> {
  await context.ready();
  const { events } = context.names;
  const columns = 'revision, type, data::text AS data, metadata::text AS metadata';
  if (options.direction !== 'backwards') {
    // Named: each connection plans it once (a run's start reads its stream forwards).
    const result = await context.pool.query<EventRow>({
      name: 'agentlog_read_forwards',
      text: `SELECT ${columns} FROM ${events}
       WHERE stream_id = $1 AND revision >= $2
       ORDER BY revision LIMIT $3`,
      values: [streamId, options.fromRevision ?? 0, options.maxCount ?? null],
    });
    return result.rows;
  }
  const result = await context.pool.query<EventRow>(
    `SELECT ${columns} FROM ${events}
     WHERE stream_id = $1 AND ($2::bigint IS NULL OR revision <= $2::bigint)
     ORDER BY revision DESC LIMIT $3`,
    [streamId, options.fromRevision ?? null, options.maxCount ?? null],
  );
  const first = result.rows[0];
  // Read backwards from a revision the stream does not hold: either it is beyond the end, or the
  // rows from the first one read up to it were deleted. Only then does it take a second query.
  if (first !== undefined && options.fromRevision !== undefined) {
    const top = Number(first.revision);
    if (top < options.fromRevision) {
      const above = await context.pool.query<{ next: string | null }>(
        `SELECT min(revision) AS next FROM ${events} WHERE stream_id = $1 AND revision > $2`,
        [streamId, options.fromRevision],
      );
      const next = above.rows[0]?.next ?? null;
      if (next !== null) throw revisionJump(streamId, context.label, top, Number(next));
    }
  }
  return result.rows;
}

function toStreamEvent(row: EventRow, streamId: string, label: string): StreamEvent {
  const revision = Number(row.revision);
  const invalid = (problem: string): InvalidEventError =>
    new InvalidEventError(row.type, revision, `${streamOf(streamId, label)}: ${problem}`);
  let data: unknown;
  let metadata: unknown;
  try {
    data = JSON.parse(row.data);
  } catch (error) {
    throw invalid(`its data column: ${jsonProblem(row.data, error)}`);
  }
  try {
    metadata = JSON.parse(row.metadata);
  } catch (error) {
    throw invalid(`its metadata column: ${jsonProblem(row.metadata, error)}`);
  }
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata))
    throw invalid(`its metadata column holds ${preview(row.metadata)}, not a JSON object`);
  return {
    type: row.type,
    data,
    metadata: { ...(metadata as Omit<StreamEvent['metadata'], 'revision'>), revision },
  };
}

function preview(text: string): string {
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}

/** Lists the streams of a PostgreSQL store (its `listStreams`), in the order they were created. */
export function postgresList(context: PostgresStoreContext): Promise<string[]> {
  return guardStore(context.label, 'listing the streams failed', async () => {
    await context.ready();
    const result = await context.pool.query<{ stream_id: string }>(
      `SELECT stream_id FROM ${context.names.events} WHERE revision = 0 ORDER BY position`,
    );
    return result.rows.map((row) => row.stream_id);
  });
}
