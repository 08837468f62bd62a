import { CURRENT_SCHEMA_VERSION, type PendingEvent } from '../events/agentEvent.js';
import type { StreamEvent } from '../ports/eventStore.js';

/** Test helper: pending events as a store would hand them back, ids `e0`, `e1`, … at revisions 0, 1, … */
export function stored(events: readonly PendingEvent[]): StreamEvent[] {
  return events.map((event, revision) => ({
    ...event,
    metadata: {
      eventId: `e${revision}`,
      at: '2026-01-01T00:00:00.000Z',
      revision,
      schemaVersion: CURRENT_SCHEMA_VERSION,
    },
  }));
}
