import type { NewStreamEvent } from '../ports/eventStore.js';

// The batch of events that the writer checked and froze last: plain JSON data checked against its
// schema, frozen metadata of three fields. One slot, not a set: a store looks at a batch as its
// append starts, right after the writer marked it, and a `WeakSet` entry per append cost more
// (about 3% of a step in memory) than the rare walk of a batch that a store looks at later, after
// another writer marked its own (behind a wrapper that waits first, say). Only the very array
// marked, frozen, ever matches: a batch is never taken for checked when it is not.
let lastChecked: readonly NewStreamEvent[] | undefined;

/**
 * For the writer alone: freezes `events` (the array, each event, its metadata; the data is
 * frozen already) and marks the batch as checked, so that a store that looks at it before the
 * next batch is marked neither walks nor copies it.
 */
export function markCheckedBatch<T extends NewStreamEvent>(events: T[]): readonly T[] {
  lastChecked = Object.freeze(events);
  return events;
}

/**
 * Whether `events` is the batch the writer marked last (see `markCheckedBatch`): its data and
 * metadata are deeply frozen plain JSON, which a store may keep as they are. `false` for any
 * other batch, which the store then checks and copies as any caller's.
 */
export function isCheckedBatch(events: readonly NewStreamEvent[]): boolean {
  return events === lastChecked;
}
