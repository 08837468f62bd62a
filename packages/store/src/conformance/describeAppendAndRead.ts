import { describe, expect, it } from 'vitest';
import {
  uniqueStreamId,
  newEvent,
  numbered,
  stored,
  revisions,
  type StoreUnderTest,
  changeOrRefuse,
} from './conformanceHelpers.js';

/**
 * Registers the conformance tests of appending, reading (with `fromRevision`, `maxCount` and
 * `direction`) and listing streams in creation order.
 */
export function describeAppendAndRead(store: StoreUnderTest): void {
  describe('append and read', () => {
    it('appends events and reads them back with revisions from 0', async () => {
      const streamId = uniqueStreamId('append');
      const events = [
        newEvent('A', { a: 1 }),
        newEvent('B', [1, 'two', null, true]),
        newEvent('C', 'text'),
      ];
      const result = await store().appendToStream(streamId, events, {
        expectedRevision: 'noStream',
      });
      expect(result).toEqual({ nextExpectedRevision: 2 });
      expect(await store().readStream(streamId)).toEqual(stored(events));
    });

    it('continues the revisions of an existing stream', async () => {
      const streamId = uniqueStreamId('continue');
      const first = numbered(2);
      const second = numbered(3, 2);
      await store().appendToStream(streamId, first, { expectedRevision: 'noStream' });
      const result = await store().appendToStream(streamId, second, { expectedRevision: 1 });
      expect(result).toEqual({ nextExpectedRevision: 4 });
      expect(await store().readStream(streamId)).toEqual(stored([...first, ...second]));
    });

    it('reads an unknown stream as empty', async () => {
      expect(await store().readStream(uniqueStreamId('unknown'))).toEqual([]);
      expect(
        await store().readStream(uniqueStreamId('unknown'), { direction: 'backwards' }),
      ).toEqual([]);
    });

    it('keeps streams apart from each other', async () => {
      const one = uniqueStreamId('apart');
      const two = uniqueStreamId('apart');
      await store().appendToStream(one, numbered(2), { expectedRevision: 'noStream' });
      await store().appendToStream(two, numbered(1), { expectedRevision: 'noStream' });
      expect(revisions(await store().readStream(one))).toEqual([0, 1]);
      expect(revisions(await store().readStream(two))).toEqual([0]);
    });

    it('hands out copies or frozen events: neither the writer nor a reader can change what is stored', async () => {
      const streamId = uniqueStreamId('copies');
      const data = { list: [1, 2], nested: { value: 'original' } };
      const event = newEvent('Copied', data);
      await store().appendToStream(streamId, [event], { expectedRevision: 'noStream' });
      data.list.push(3);
      data.nested.value = 'changed by the caller';
      const [read] = await store().readStream(streamId);
      changeOrRefuse(() => {
        (read?.data as { nested: { value: string } }).nested.value = 'changed by a reader';
      });
      const [again] = await store().readStream(streamId);
      expect(again?.data).toEqual({ list: [1, 2], nested: { value: 'original' } });
    });
  });

  describe('readStream options', () => {
    it('reads forwards from fromRevision', async () => {
      const streamId = uniqueStreamId('from');
      const events = numbered(10);
      await store().appendToStream(streamId, events, { expectedRevision: 'noStream' });
      expect(await store().readStream(streamId, { fromRevision: 6 })).toEqual(
        stored(events).slice(6),
      );
      expect(await store().readStream(streamId, { fromRevision: 10 })).toEqual([]);
      expect(await store().readStream(streamId, { fromRevision: 50 })).toEqual([]);
    });

    it('caps the count with maxCount', async () => {
      const streamId = uniqueStreamId('max');
      const events = numbered(10);
      await store().appendToStream(streamId, events, { expectedRevision: 'noStream' });
      expect(revisions(await store().readStream(streamId, { maxCount: 3 }))).toEqual([0, 1, 2]);
      expect(
        revisions(await store().readStream(streamId, { fromRevision: 8, maxCount: 5 })),
      ).toEqual([8, 9]);
      expect(revisions(await store().readStream(streamId, { maxCount: 100 }))).toHaveLength(10);
    });

    it('reads backwards from the last event by default', async () => {
      const streamId = uniqueStreamId('backwards');
      const events = numbered(5);
      await store().appendToStream(streamId, events, { expectedRevision: 'noStream' });
      expect(await store().readStream(streamId, { direction: 'backwards' })).toEqual(
        stored(events).reverse(),
      );
    });

    it('reads backwards from fromRevision down, capped by maxCount', async () => {
      const streamId = uniqueStreamId('backwards-from');
      await store().appendToStream(streamId, numbered(10), { expectedRevision: 'noStream' });
      expect(
        revisions(await store().readStream(streamId, { direction: 'backwards', fromRevision: 3 })),
      ).toEqual([3, 2, 1, 0]);
      expect(
        revisions(await store().readStream(streamId, { direction: 'backwards', maxCount: 2 })),
      ).toEqual([9, 8]);
      expect(
        revisions(
          await store().readStream(streamId, {
            direction: 'backwards',
            fromRevision: 6,
            maxCount: 3,
          }),
        ),
      ).toEqual([6, 5, 4]);
    });

    it('reads explicitly forwards like the default', async () => {
      const streamId = uniqueStreamId('forwards');
      await store().appendToStream(streamId, numbered(4), { expectedRevision: 'noStream' });
      expect(await store().readStream(streamId, { direction: 'forwards' })).toEqual(
        await store().readStream(streamId),
      );
    });
  });

  describe('listStreams', () => {
    it('lists stream ids in the order they were created', async () => {
      const ids = [uniqueStreamId('list'), uniqueStreamId('list'), uniqueStreamId('list')] as const;
      await store().appendToStream(ids[0], numbered(1), { expectedRevision: 'noStream' });
      await store().appendToStream(ids[1], numbered(1), { expectedRevision: 'noStream' });
      await store().appendToStream(ids[0], numbered(1, 1), { expectedRevision: 0 });
      await store().appendToStream(ids[2], numbered(1), { expectedRevision: 'any' });
      await store().appendToStream(ids[1], numbered(1, 1), { expectedRevision: 'any' });
      const listed = await store().listStreams();
      expect(listed.filter((id) => (ids as readonly string[]).includes(id))).toEqual([...ids]);
    });
  });
}
