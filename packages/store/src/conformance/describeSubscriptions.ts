import { firstValueFrom, take, tap, timeout, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { StreamEvent } from '@agentlog/core';
import {
  liveTimeoutMs,
  quietMs,
  uniqueStreamId,
  newEvent,
  numbered,
  stored,
  collect,
  sleep,
  revisions,
  type StoreUnderTest,
  changeOrRefuse,
} from './conformanceHelpers.js';

/**
 * Registers the conformance tests of `subscribeToStream`: catch-up then live, in order, without
 * gap or duplicate, and nothing after unsubscribe.
 */
export function describeSubscriptions(store: StoreUnderTest): void {
  describe('subscribeToStream', () => {
    it('delivers the stored events, then the ones appended later, in order', async () => {
      const streamId = uniqueStreamId('subscribe');
      const first = numbered(3);
      const later = numbered(2, 3);
      await store().appendToStream(streamId, first, { expectedRevision: 'noStream' });
      const received = collect(store().subscribeToStream(streamId), 5);
      await store().appendToStream(streamId, later.slice(0, 1), { expectedRevision: 2 });
      await store().appendToStream(streamId, later.slice(1), { expectedRevision: 3 });
      expect(await received).toEqual(stored([...first, ...later]));
    });

    it('starts the catch-up at fromRevision', async () => {
      const streamId = uniqueStreamId('subscribe-from');
      const events = numbered(6);
      await store().appendToStream(streamId, events.slice(0, 4), {
        expectedRevision: 'noStream',
      });
      const received = collect(store().subscribeToStream(streamId, { fromRevision: 2 }), 4);
      await store().appendToStream(streamId, events.slice(4), { expectedRevision: 3 });
      expect(await received).toEqual(stored(events).slice(2));
    });

    it('waits for a stream that does not exist yet', async () => {
      const streamId = uniqueStreamId('subscribe-missing');
      const events = numbered(2);
      const received = collect(store().subscribeToStream(streamId), 2);
      await sleep(10);
      await store().appendToStream(streamId, events, { expectedRevision: 'noStream' });
      expect(await received).toEqual(stored(events));
    });

    it('delivers without gap or duplicate when appends happen during the catch-up', async () => {
      const streamId = uniqueStreamId('subscribe-during');
      await store().appendToStream(streamId, numbered(50), { expectedRevision: 'noStream' });
      const appends: Promise<unknown>[] = [];
      const received = firstValueFrom(
        store()
          .subscribeToStream(streamId)
          .pipe(
            tap((event) => {
              // Append while the stored events are still being delivered.
              const revision = event.metadata.revision;
              if (revision < 5) {
                appends.push(
                  store().appendToStream(streamId, numbered(1, 1_000 + revision), {
                    expectedRevision: 'any',
                  }),
                );
              }
            }),
            take(55),
            toArray(),
            timeout(liveTimeoutMs),
          ),
      );
      const seen = revisions(await received);
      await Promise.all(appends);
      expect(seen).toEqual(Array.from({ length: 55 }, (_, index) => index));
    });

    it('delivers concurrent appends in revision order to every subscriber', async () => {
      const streamId = uniqueStreamId('subscribe-many');
      const one = collect(store().subscribeToStream(streamId), 40);
      const two = collect(store().subscribeToStream(streamId), 40);
      await Promise.all(
        Array.from({ length: 20 }, (_, index) =>
          store().appendToStream(streamId, numbered(2, index * 2), { expectedRevision: 'any' }),
        ),
      );
      const expected = Array.from({ length: 40 }, (_, index) => index);
      const stream = await store().readStream(streamId);
      expect(revisions(await one)).toEqual(expected);
      expect(await one).toEqual(stream);
      expect(await two).toEqual(stream);
    });

    it('stops delivery after unsubscribe', async () => {
      const streamId = uniqueStreamId('unsubscribe');
      await store().appendToStream(streamId, numbered(2), { expectedRevision: 'noStream' });
      const received: StreamEvent[] = [];
      const subscription = store()
        .subscribeToStream(streamId)
        .subscribe((event) => received.push(event));
      const deadline = Date.now() + liveTimeoutMs;
      while (received.length < 2 && Date.now() < deadline) await sleep(5);
      expect(revisions(received)).toEqual([0, 1]);
      subscription.unsubscribe();
      await store().appendToStream(streamId, numbered(2, 2), { expectedRevision: 1 });
      await sleep(quietMs);
      expect(revisions(received)).toEqual([0, 1]);
    });

    it('hands subscribers copies or frozen events that cannot change the stored events', async () => {
      const streamId = uniqueStreamId('subscribe-copies');
      await store().appendToStream(streamId, [newEvent('Copied', { value: 'original' })], {
        expectedRevision: 'noStream',
      });
      const [event] = await collect(store().subscribeToStream(streamId), 1);
      changeOrRefuse(() => {
        (event?.data as { value: string }).value = 'changed by a subscriber';
      });
      const [again] = await store().readStream(streamId);
      expect(again?.data).toEqual({ value: 'original' });
    });
  });
}
