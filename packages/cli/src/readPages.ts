import type { EventStore, StreamEvent } from '@agentlog/core';

/**
 * How many events a paged read asks the store for at a time. Small enough that a page is garbage
 * before the young generation promotes it (2,000 grew inspect's peak RSS with the stream, see
 * docs/performance.md#growth); a SQLite page read is an index range, cheap at this size.
 */
export const pageSize = 500;

/**
 * The events of `streamId`, in pages of at most `size` events read with `fromRevision` and
 * `maxCount`: only one page is held at a time, whatever the stream's length.
 */
export async function* readPages(
  store: EventStore,
  streamId: string,
  size = pageSize,
): AsyncGenerator<StreamEvent[]> {
  let from = 0;
  for (;;) {
    const page = await store.readStream(streamId, { fromRevision: from, maxCount: size });
    if (page.length === 0) return;
    yield page;
    if (page.length < size) return;
    from = (page.at(-1)?.metadata.revision ?? from) + 1;
  }
}
