import { describe, expect, it } from 'vitest';
import { InvalidEventError } from '../errors/invalidEventError.js';
import { CURRENT_SCHEMA_VERSION } from '../events/agentEvent.js';
import { decodeEvent } from '../events/decodeEvent.js';
import { foldStream } from '../events/foldEvents.js';
import type { StreamEvent } from '../ports/eventStore.js';

function event(
  type: string,
  data: unknown,
  revision: number,
  schemaVersion = CURRENT_SCHEMA_VERSION,
) {
  return {
    type,
    data,
    metadata: { eventId: `e${revision}`, at: '2026-01-01T00:00:00.000Z', revision, schemaVersion },
  } as StreamEvent;
}

describe('decoding a stored stream keeps one copy of it', () => {
  it('EVT-4 a stored event of the current schema is checked in place and handed back as it is, not copied', () => {
    const stored = event('UserMessageQueued', { text: 'hi' }, 0);
    expect(decodeEvent(stored)).toBe(stored);
  });

  it('EVT-5 an event an upcaster upgrades is a new object; the stored one is not changed', () => {
    const stored = event('UserMessageQueued', { text: 'hi' }, 0, CURRENT_SCHEMA_VERSION - 1);
    const decoded = decodeEvent(stored);
    expect(decoded).not.toBe(stored);
    expect(decoded.metadata.schemaVersion).toBe(CURRENT_SCHEMA_VERSION);
    expect(stored.metadata.schemaVersion).toBe(CURRENT_SCHEMA_VERSION - 1);
  });

  it('EVT-4 a stored event the check refuses is still refused, naming its revision', () => {
    expect(() => decodeEvent(event('UserMessageQueued', { text: 3 }, 7))).toThrow(
      expect.objectContaining({ name: 'InvalidEventError', revision: 7 }) as Error,
    );
  });

  it('EVT-4 foldStream decodes and folds in one pass: its events are the stored objects and the first bad event in stream order is the error', () => {
    const stored = [
      event('UserMessageQueued', { text: 'hi' }, 0),
      event('UserMessageAdded', { text: 'hi' }, 1),
    ];
    const { state, events } = foldStream(stored);
    expect(state.revision).toBe(1);
    expect(events[0]).toBe(stored[0]);
    expect(events[1]).toBe(stored[1]);

    // Revision 1 contradicts the state (another text is queued); revision 2 is no event at all.
    const bad = [
      event('UserMessageQueued', { text: 'a' }, 0),
      event('UserMessageAdded', { text: 'b' }, 1),
      event('NoSuchEvent', {}, 2),
    ];
    let thrown: unknown;
    try {
      foldStream(bad);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(InvalidEventError);
    expect((thrown as InvalidEventError).revision).toBe(1);
  });
});
