import { firstValueFrom } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { createInMemoryEventStore } from '@agentlog/core';
import { countInMemorySubscriptions } from '@agentlog/core/testing';
import { describeEventStoreConformance } from './conformance/eventStoreConformance.js';
import { describeWorkIndexConformance } from './conformance/workIndexConformance.js';

describeEventStoreConformance('in-memory event store', () =>
  Promise.resolve({ store: createInMemoryEventStore() }),
);

describeWorkIndexConformance('in-memory work index', () => {
  // The store's clock, set by the tests: leases are judged on it (SPEC WRK-4).
  let now = Date.parse('2030-01-01T00:00:00.000Z');
  const store = createInMemoryEventStore({ clock: () => new Date(now) });
  return Promise.resolve({
    store,
    advanceClock: (ms: number) => {
      now += ms;
    },
  });
});

const event = (n: number) => ({
  type: 'Numbered',
  data: { n },
  metadata: { eventId: `event-${n}`, at: '2025-01-02T03:04:05.678Z', schemaVersion: 1 },
});

describe('in-memory event store internals', () => {
  it('removes the listener of a subscription when it is unsubscribed', async () => {
    const store = createInMemoryEventStore();
    const received: number[] = [];
    const first = store
      .subscribeToStream('run-1')
      .subscribe((e) => received.push(e.metadata.revision));
    const second = store.subscribeToStream('run-1').subscribe(() => undefined);
    const other = store.subscribeToStream('run-2').subscribe(() => undefined);
    expect(countInMemorySubscriptions(store)).toBe(3);
    await store.appendToStream('run-1', [event(0)], { expectedRevision: 'noStream' });
    first.unsubscribe();
    second.unsubscribe();
    other.unsubscribe();
    expect(countInMemorySubscriptions(store)).toBe(0);
    await store.appendToStream('run-1', [event(1)], { expectedRevision: 0 });
    expect(received).toEqual([0]);
  });

  it('removes the listener when a subscriber completes itself during the catch-up', async () => {
    const store = createInMemoryEventStore();
    await store.appendToStream('run-1', [event(0), event(1), event(2)], {
      expectedRevision: 'noStream',
    });
    const firstEvent = await firstValueFrom(store.subscribeToStream('run-1'));
    expect(firstEvent.metadata.revision).toBe(0);
    expect(countInMemorySubscriptions(store)).toBe(0);
  });

  it('reports an invalid stream id to a subscriber as an error', () => {
    const store = createInMemoryEventStore();
    const errors: unknown[] = [];
    store.subscribeToStream('a/b').subscribe({ error: (error: unknown) => errors.push(error) });
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ code: 'invalidStreamId' });
    expect(countInMemorySubscriptions(store)).toBe(0);
  });

  it('rejects an expectedRevision that is not a revision', async () => {
    const store = createInMemoryEventStore();
    await expect(
      store.appendToStream('run-1', [event(0)], { expectedRevision: -1 }),
    ).rejects.toThrow(RangeError);
    await expect(
      store.appendToStream('run-1', [event(0)], { expectedRevision: 1.5 }),
    ).rejects.toThrow(RangeError);
    expect(await store.listStreams()).toEqual([]);
  });

  it('returns -1 for an empty append to a stream that does not exist, and creates nothing', async () => {
    const store = createInMemoryEventStore();
    expect(await store.appendToStream('run-1', [], { expectedRevision: 'noStream' })).toEqual({
      nextExpectedRevision: -1,
    });
    expect(await store.listStreams()).toEqual([]);
  });

  it('stores an eventId repeated within one append once', async () => {
    const store = createInMemoryEventStore();
    const result = await store.appendToStream('run-1', [event(0), event(1), event(0)], {
      expectedRevision: 'noStream',
    });
    expect(result).toEqual({ nextExpectedRevision: 1 });
    expect((await store.readStream('run-1')).map((e) => e.data)).toEqual([{ n: 0 }, { n: 1 }]);
  });

  it('rejects a cyclic payload as invalid without overflowing', async () => {
    const store = createInMemoryEventStore();
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    const bad = { ...event(0), data: cyclic };
    await expect(
      store.appendToStream('run-1', [bad], { expectedRevision: 'any' }),
    ).rejects.toMatchObject({
      code: 'invalidEvent',
    });
  });
});
