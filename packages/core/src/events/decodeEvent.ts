import { InvalidEventError } from '../errors/invalidEventError.js';
import type { StreamEvent } from '../ports/eventStore.js';
import { CURRENT_SCHEMA_VERSION, type AgentEvent, type AgentEventType } from './agentEvent.js';
import { eventDataSchemas } from './eventSchemas.js';

/** Turns older stored data of one event type into the next version's shape (SPEC EVT-5). */
export type Upcaster = (data: unknown) => unknown;

/**
 * Upcasters by event type and the version they upgrade from. Version 1 is the first; when an
 * event's shape changes, its old version gets an entry here and `CURRENT_SCHEMA_VERSION` moves on.
 */
export const upcasters: Partial<Record<AgentEventType, Record<number, Upcaster>>> = {};

/**
 * Checks a stored event and upgrades it to the current schema (SPEC EVT-4, EVT-5). Throws an
 * `InvalidEventError` naming the event and its revision when it is unknown, malformed, from a
 * newer agentlog, or too old to upgrade.
 */
export function decodeEvent(stored: StreamEvent): AgentEvent {
  const { type, metadata } = stored;
  const revision = typeof metadata?.revision === 'number' ? metadata.revision : undefined;
  if (typeof type !== 'string' || !Object.hasOwn(eventDataSchemas, type)) {
    throw new InvalidEventError(String(type), revision, 'unknown event type');
  }
  const eventType = type as AgentEventType;
  if (
    revision === undefined ||
    typeof metadata.eventId !== 'string' ||
    typeof metadata.at !== 'string'
  ) {
    throw new InvalidEventError(eventType, revision, 'metadata needs eventId, at and revision');
  }
  let version = metadata.schemaVersion;
  if (!Number.isInteger(version) || version < 1) {
    throw new InvalidEventError(
      eventType,
      revision,
      `schema version ${String(version)} is not valid`,
    );
  }
  if (version > CURRENT_SCHEMA_VERSION) {
    throw new InvalidEventError(
      eventType,
      revision,
      `schema version ${version} is newer than this agentlog reads (${CURRENT_SCHEMA_VERSION}); upgrade agentlog`,
    );
  }
  let data: unknown = stored.data;
  while (version < CURRENT_SCHEMA_VERSION) {
    const upcast = upcasters[eventType]?.[version];
    if (upcast === undefined) {
      throw new InvalidEventError(
        eventType,
        revision,
        `no upcaster from schema version ${version}`,
      );
    }
    data = upcast(data);
    version += 1;
  }
  const problem = eventDataSchemas[eventType](data, '');
  if (problem !== undefined) throw new InvalidEventError(eventType, revision, problem);
  // Checked in place, not rebuilt: the stored object is the event (a store hands out copies).
  return {
    type: eventType,
    data,
    metadata:
      metadata.schemaVersion === CURRENT_SCHEMA_VERSION
        ? metadata
        : { ...metadata, schemaVersion: CURRENT_SCHEMA_VERSION },
  } as AgentEvent;
}
