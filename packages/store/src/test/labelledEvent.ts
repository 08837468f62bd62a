import { randomUUID } from 'node:crypto';
import type { NewStreamEvent } from '@agentlog/core';

/** A `Labelled` event whose id starts with `label` and is unique. */
export function labelledEvent(label: string, data: unknown = { label }): NewStreamEvent {
  return {
    type: 'Labelled',
    data,
    metadata: {
      eventId: `${label}-${randomUUID()}`,
      at: '2025-01-02T03:04:05.678Z',
      schemaVersion: 1,
    },
  };
}
