import type { AgentEvent, EventStore, NewStreamEvent } from '@agentlog/core';

/**
 * Appends synthesised events to `streamId` as new events (type, data and the metadata a writer
 * gives; the store numbers them), `batchSize` at a time, each append expecting the revision the
 * one before left. What the bench's children write their long streams with.
 */
export async function appendInBatches(
  store: EventStore,
  streamId: string,
  events: readonly AgentEvent[],
  batchSize: number,
): Promise<void> {
  let expectedRevision: number | 'noStream' = 'noStream';
  for (let start = 0; start < events.length; start += batchSize) {
    const batch: NewStreamEvent[] = events.slice(start, start + batchSize).map((event) => ({
      type: event.type,
      data: event.data,
      metadata: {
        eventId: event.metadata.eventId,
        at: event.metadata.at,
        schemaVersion: event.metadata.schemaVersion,
      },
    }));
    ({ nextExpectedRevision: expectedRevision } = await store.appendToStream(streamId, batch, {
      expectedRevision,
    }));
  }
}
