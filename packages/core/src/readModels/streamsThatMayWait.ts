import type { EventStore } from '../ports/eventStore.js';

/**
 * The streams of `store` that may hold a call waiting for a person's decision, in the store's
 * order. A store with a work index (SQLite, PostgreSQL) lists a stream stopped for a decision as
 * `waiting` (SPEC WRK-2) and a finished one as `idle`: every stream it does not list as `idle` is
 * kept, and every stream it does not know. A store without one (JSONL, KurrentDB): every stream.
 */
export async function streamsThatMayWait(store: EventStore): Promise<readonly string[]> {
  const streamIds = await store.listStreams();
  if (store.work === undefined) return streamIds;
  const work = await store.work.workOf();
  return streamIds.filter((streamId) => work.get(streamId)?.status !== 'idle');
}
