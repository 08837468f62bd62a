import { assertRevisionOption, assertValidStreamId } from '@agentlog/core';
import type { ReadStreamOptions, StreamEvent } from '@agentlog/core';
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
 * from `fromRevision`, at most `maxCount` of them.
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
  await context.ready();
  const { events } = context.names;
  const columns = 'revision, type, data::text AS data, metadata::text AS metadata';
  const result =
    options.direction === 'backwards'
      ? await context.pool.query<EventRow>(
          `SELECT ${columns} FROM ${events}
           WHERE stream_id = $1 AND ($2::bigint IS NULL OR revision <= $2::bigint)
           ORDER BY revision DESC LIMIT $3`,
          [streamId, options.fromRevision ?? null, options.maxCount ?? null],
        )
      : await context.pool.query<EventRow>(
          `SELECT ${columns} FROM ${events}
           WHERE stream_id = $1 AND revision >= $2
           ORDER BY revision LIMIT $3`,
          [streamId, options.fromRevision ?? 0, options.maxCount ?? null],
        );
  return result.rows.map(toStreamEvent);
}

function toStreamEvent(row: EventRow): StreamEvent {
  const metadata = JSON.parse(row.metadata) as Omit<StreamEvent['metadata'], 'revision'>;
  return {
    type: row.type,
    data: JSON.parse(row.data) as unknown,
    metadata: { ...metadata, revision: Number(row.revision) },
  };
}

/** Lists the streams of a PostgreSQL store (its `listStreams`), in the order they were created. */
export async function postgresList(context: PostgresStoreContext): Promise<string[]> {
  await context.ready();
  const result = await context.pool.query<{ stream_id: string }>(
    `SELECT stream_id FROM ${context.names.events} WHERE revision = 0 ORDER BY position`,
  );
  return result.rows.map((row) => row.stream_id);
}
