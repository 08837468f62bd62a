import { describe, expect, it } from 'vitest';
import type { ExpectedRevision } from '@agentlog/core';
import {
  uniqueStreamId,
  newEvent,
  numbered,
  stored,
  expectConflict,
  revisions,
  type StoreUnderTest,
} from './conformanceHelpers.js';

/**
 * Registers the conformance tests of expected revisions (SPEC RES-3: conflicts store nothing, one
 * of two racing writers wins) and of idempotence by `eventId`.
 */
export function describeConcurrency(store: StoreUnderTest): void {
  describe('expected revisions (RES-3)', () => {
    it('RES-3: appends with a numeric expectedRevision when the stream is at that revision', async () => {
      const streamId = uniqueStreamId('number');
      await store().appendToStream(streamId, numbered(3), { expectedRevision: 'noStream' });
      const result = await store().appendToStream(streamId, numbered(1, 3), {
        expectedRevision: 2,
      });
      expect(result).toEqual({ nextExpectedRevision: 3 });
    });

    it('RES-3: rejects a stale numeric expectedRevision with a ConcurrencyError and stores nothing', async () => {
      const streamId = uniqueStreamId('number-stale');
      await store().appendToStream(streamId, numbered(3), { expectedRevision: 'noStream' });
      await expectConflict(
        store().appendToStream(streamId, numbered(2, 3), { expectedRevision: 1 }),
        streamId,
        1,
        2,
      );
      await expectConflict(
        store().appendToStream(streamId, numbered(2, 3), { expectedRevision: 5 }),
        streamId,
        5,
        2,
      );
      expect(revisions(await store().readStream(streamId))).toEqual([0, 1, 2]);
    });

    it('RES-3: rejects a numeric expectedRevision on a missing stream and creates nothing', async () => {
      const streamId = uniqueStreamId('number-missing');
      await expectConflict(
        store().appendToStream(streamId, numbered(1), { expectedRevision: 0 }),
        streamId,
        0,
        'noStream',
      );
      expect(await store().readStream(streamId)).toEqual([]);
      expect(await store().listStreams()).not.toContain(streamId);
    });

    it('RES-3: appends with expectedRevision noStream only to a new stream', async () => {
      const streamId = uniqueStreamId('no-stream');
      const result = await store().appendToStream(streamId, numbered(2), {
        expectedRevision: 'noStream',
      });
      expect(result).toEqual({ nextExpectedRevision: 1 });
      await expectConflict(
        store().appendToStream(streamId, numbered(1, 2), { expectedRevision: 'noStream' }),
        streamId,
        'noStream',
        1,
      );
      expect(revisions(await store().readStream(streamId))).toEqual([0, 1]);
    });

    it('RES-3: appends with expectedRevision streamExists only to an existing stream', async () => {
      const streamId = uniqueStreamId('stream-exists');
      await expectConflict(
        store().appendToStream(streamId, numbered(1), { expectedRevision: 'streamExists' }),
        streamId,
        'streamExists',
        'noStream',
      );
      expect(await store().readStream(streamId)).toEqual([]);
      expect(await store().listStreams()).not.toContain(streamId);
      await store().appendToStream(streamId, numbered(1), { expectedRevision: 'noStream' });
      const result = await store().appendToStream(streamId, numbered(2, 1), {
        expectedRevision: 'streamExists',
      });
      expect(result).toEqual({ nextExpectedRevision: 2 });
      expect(revisions(await store().readStream(streamId))).toEqual([0, 1, 2]);
    });

    it('RES-3: appends with expectedRevision any to a new and to an existing stream', async () => {
      const streamId = uniqueStreamId('any');
      expect(
        await store().appendToStream(streamId, numbered(2), { expectedRevision: 'any' }),
      ).toEqual({
        nextExpectedRevision: 1,
      });
      expect(
        await store().appendToStream(streamId, numbered(1, 2), { expectedRevision: 'any' }),
      ).toEqual({
        nextExpectedRevision: 2,
      });
      expect(revisions(await store().readStream(streamId))).toEqual([0, 1, 2]);
    });

    it('RES-3: appends zero events only checking the expectation', async () => {
      const streamId = uniqueStreamId('empty-append');
      await store().appendToStream(streamId, numbered(2), { expectedRevision: 'noStream' });
      expect(await store().appendToStream(streamId, [], { expectedRevision: 1 })).toEqual({
        nextExpectedRevision: 1,
      });
      expect(
        await store().appendToStream(streamId, [], { expectedRevision: 'streamExists' }),
      ).toEqual({
        nextExpectedRevision: 1,
      });
      await expectConflict(
        store().appendToStream(streamId, [], { expectedRevision: 0 }),
        streamId,
        0,
        1,
      );
      await expectConflict(
        store().appendToStream(streamId, [], { expectedRevision: 'noStream' }),
        streamId,
        'noStream',
        1,
      );
      const missing = uniqueStreamId('empty-append-missing');
      await store().appendToStream(missing, [], { expectedRevision: 'noStream' });
      await expectConflict(
        store().appendToStream(missing, [], { expectedRevision: 'streamExists' }),
        missing,
        'streamExists',
        'noStream',
      );
      expect(await store().readStream(missing)).toEqual([]);
      expect(revisions(await store().readStream(streamId))).toEqual([0, 1]);
    });

    it('RES-3: lets one of two writers that resume the same stream win; the other appends nothing', async () => {
      const streamId = uniqueStreamId('two-writers');
      await store().appendToStream(streamId, numbered(2), { expectedRevision: 'noStream' });
      const [last] = await store().readStream(streamId, { direction: 'backwards', maxCount: 1 });
      const resumedAt = last?.metadata.revision ?? -1;
      expect(resumedAt).toBe(1);
      const writerA = [
        newEvent('ByA', { writer: 'a', n: 1 }),
        newEvent('ByA', { writer: 'a', n: 2 }),
      ];
      const writerB = [
        newEvent('ByB', { writer: 'b', n: 1 }),
        newEvent('ByB', { writer: 'b', n: 2 }),
      ];
      const outcomes = await Promise.allSettled([
        store().appendToStream(streamId, writerA, { expectedRevision: resumedAt }),
        store().appendToStream(streamId, writerB, { expectedRevision: resumedAt }),
      ]);
      const won = outcomes.filter((outcome) => outcome.status === 'fulfilled');
      const lost = outcomes.filter(
        (outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected',
      );
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(1);
      expect(lost[0]?.reason).toMatchObject({
        name: 'ConcurrencyError',
        code: 'concurrency',
        streamId,
        expected: 1,
        actual: 3,
      });
      const winner = outcomes[0]?.status === 'fulfilled' ? writerA : writerB;
      const events = await store().readStream(streamId);
      expect(events.slice(2)).toEqual(stored(winner, 2));
      expect(events).toHaveLength(4);
    });

    it('RES-3: loses no event and doubles none when many writers race with retries', async () => {
      const streamId = uniqueStreamId('race');
      const writers = 8;
      const perWriter = 5;
      const writeAll = async (writer: number): Promise<void> => {
        for (let n = 0; n < perWriter; n += 1) {
          const event = newEvent('Raced', { writer, n });
          for (;;) {
            const [last] = await store().readStream(streamId, {
              direction: 'backwards',
              maxCount: 1,
            });
            const expectedRevision: ExpectedRevision =
              last === undefined ? 'noStream' : last.metadata.revision;
            try {
              await store().appendToStream(streamId, [event], { expectedRevision });
              break;
            } catch (error) {
              expect(error).toMatchObject({ code: 'concurrency', streamId });
            }
          }
        }
      };
      await Promise.all(Array.from({ length: writers }, (_, writer) => writeAll(writer)));
      const events = await store().readStream(streamId);
      expect(revisions(events)).toEqual(
        Array.from({ length: writers * perWriter }, (_, index) => index),
      );
      const keys = events.map((event) => JSON.stringify(event.data));
      expect(new Set(keys).size).toBe(writers * perWriter);
    });
  });

  describe('idempotence', () => {
    it('stores an event appended twice with the same eventId once', async () => {
      const streamId = uniqueStreamId('idempotent');
      const event = newEvent('Once', { value: 1 });
      await store().appendToStream(streamId, [event], { expectedRevision: 'noStream' });
      const result = await store().appendToStream(streamId, [event], { expectedRevision: 'any' });
      expect(result).toEqual({ nextExpectedRevision: 0 });
      expect(await store().readStream(streamId)).toEqual(stored([event]));
    });

    it('accepts a retried append even when its expectedRevision is stale', async () => {
      const streamId = uniqueStreamId('retry');
      const batch = numbered(2);
      await store().appendToStream(streamId, batch, { expectedRevision: 'noStream' });
      await store().appendToStream(streamId, numbered(1, 2), { expectedRevision: 1 });
      const result = await store().appendToStream(streamId, batch, {
        expectedRevision: 'noStream',
      });
      expect(result).toEqual({ nextExpectedRevision: 2 });
      expect(revisions(await store().readStream(streamId))).toEqual([0, 1, 2]);
    });

    it('stores only the events of an append that are not stored yet', async () => {
      const streamId = uniqueStreamId('partial');
      const [a, b, c] = numbered(3);
      if (a === undefined || b === undefined || c === undefined) throw new Error('unreachable');
      await store().appendToStream(streamId, [a, b], { expectedRevision: 'noStream' });
      const result = await store().appendToStream(streamId, [b, c], { expectedRevision: 'any' });
      expect(result).toEqual({ nextExpectedRevision: 2 });
      expect(await store().readStream(streamId)).toEqual(stored([a, b, c]));
    });
  });
}
