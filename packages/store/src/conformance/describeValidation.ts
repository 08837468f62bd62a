import { describe, expect, it } from 'vitest';
import {
  uniqueStreamId,
  newEvent,
  numbered,
  rejection,
  revisions,
  type StoreUnderTest,
} from './conformanceHelpers.js';

/**
 * Registers the conformance tests of validation: bad stream ids and non-JSON or untyped events are
 * refused before anything is stored.
 */
export function describeValidation(store: StoreUnderTest): void {
  describe('validation', () => {
    const invalidIds: readonly (readonly [string, string])[] = [
      ['an empty id', ''],
      ['an id of 201 characters', 'x'.repeat(201)],
      ['a slash', 'agent/run'],
      ['a backslash', 'agent\\run'],
      ['a NUL', 'agent\u0000run'],
      ['a newline', 'agent\nrun'],
      ['a tab', 'agent\trun'],
      ['a DEL', 'agent\u007frun'],
      ['an unpaired surrogate', 'agent\ud800run'],
    ];

    for (const [label, streamId] of invalidIds) {
      it(`rejects a stream id with ${label} and stores nothing`, async () => {
        const error = await rejection(
          store().appendToStream(streamId, numbered(1), { expectedRevision: 'any' }),
        );
        expect(error).toBeInstanceOf(Error);
        expect(error).toMatchObject({ code: 'invalidStreamId' });
        expect((error as Error).message).not.toBe('');
        expect(await store().listStreams()).not.toContain(streamId);
      });
    }

    it('accepts a stream id of 200 characters', async () => {
      const prefix = uniqueStreamId('long');
      const streamId = prefix + 'x'.repeat(200 - prefix.length);
      await store().appendToStream(streamId, numbered(1), { expectedRevision: 'noStream' });
      expect(await store().listStreams()).toContain(streamId);
    });

    const nonJson: readonly (readonly [string, unknown, string])[] = [
      ['a Date', { when: new Date('2025-01-01T00:00:00Z') }, 'Date'],
      ['a function', { callback: () => 1 }, 'function'],
      ['NaN', { score: Number.NaN }, 'NaN'],
      ['Infinity', [1, Number.POSITIVE_INFINITY], 'Infinity'],
      ['a Map', { lookup: new Map([['a', 1]]) }, 'Map'],
      ['a bigint', { big: 10n }, 'bigint'],
      ['undefined in an array', [1, undefined, 3], 'undefined'],
    ];

    for (const [label, data, problem] of nonJson) {
      it(`rejects event data holding ${label}, naming it and the event index, and stores nothing`, async () => {
        const streamId = uniqueStreamId('non-json');
        const events = [newEvent('Fine', { ok: true }), newEvent('Broken', data)];
        const error = await rejection(
          store().appendToStream(streamId, events, { expectedRevision: 'any' }),
        );
        expect(error).toBeInstanceOf(Error);
        expect(error).toMatchObject({ code: 'invalidEvent' });
        expect((error as Error).message).toContain(problem);
        expect((error as Error).message).toContain('events[1]');
        expect(await store().readStream(streamId)).toEqual([]);
        expect(await store().listStreams()).not.toContain(streamId);
      });
    }

    it('rejects an event with an empty type and stores nothing', async () => {
      const streamId = uniqueStreamId('empty-type');
      await store().appendToStream(streamId, numbered(1), { expectedRevision: 'noStream' });
      const error = await rejection(
        store().appendToStream(
          streamId,
          [newEvent('Fine', 1), newEvent('', 2), newEvent('Fine', 3)],
          {
            expectedRevision: 0,
          },
        ),
      );
      expect(error).toMatchObject({ code: 'invalidEvent' });
      expect((error as Error).message).toContain('events[1]');
      expect((error as Error).message).toContain('type');
      expect(revisions(await store().readStream(streamId))).toEqual([0]);
    });

    it('validates events before checking the expected revision', async () => {
      const streamId = uniqueStreamId('validate-first');
      const error = await rejection(
        store().appendToStream(streamId, [newEvent('Broken', { at: new Date() })], {
          expectedRevision: 3,
        }),
      );
      expect(error).toMatchObject({ code: 'invalidEvent' });
    });
  });
}
