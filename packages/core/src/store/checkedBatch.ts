import type { NewStreamEvent } from '../ports/eventStore.js';

// Batches of events that the writer checked and froze: plain JSON data checked against its
// schema, frozen metadata of three fields. One entry per append, never one per event: a `WeakSet`
// entry costs more than walking small data, and an append's batch is garbage once it is stored.
const checkedBatches = new WeakSet<readonly NewStreamEvent[]>();

/**
 * For the writer alone: freezes `events` (the array, each event, its metadata; the data is
 * frozen already) and marks the batch as checked, so that a store neither walks nor copies it.
 */
export function markCheckedBatch<T extends NewStreamEvent>(events: T[]): readonly T[] {
  checkedBatches.add(Object.freeze(events));
  return events;
}

/**
 * Whether the writer checked and froze every event of `events` (see `markCheckedBatch`): its data
 * and metadata are deeply frozen plain JSON, which a store may keep as they are.
 */
export function isCheckedBatch(events: readonly NewStreamEvent[]): boolean {
  return checkedBatches.has(events);
}
