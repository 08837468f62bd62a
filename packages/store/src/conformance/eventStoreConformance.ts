import { randomBytes, randomUUID } from 'node:crypto';
import { firstValueFrom, type Observable, take, tap, timeout, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EventStore, ExpectedRevision, NewStreamEvent, StreamEvent } from '@agentlog/core';

/** What a conformance run needs from an adapter: a store, and optionally how to close it. */
export interface ConformanceStore {
  readonly store: EventStore;
  readonly close?: () => Promise<void>;
}

/** Options of `describeEventStoreConformance`. */
export interface ConformanceOptions {
  /** Skips the whole suite, giving this reason (e.g. "set PG_URL to run against PostgreSQL"). */
  readonly skip?: string;
}

const liveTimeoutMs = 5_000;
/** How long a test waits to be sure that something does not arrive. */
const quietMs = 100;
const largeTestTimeoutMs = 120_000;

let streamCounter = 0;

/** A stream id no other test (nor an earlier run against the same database) uses. */
function uniqueStreamId(label: string): string {
  streamCounter += 1;
  return `conformance-${label}-${streamCounter}-${randomBytes(6).toString('hex')}`;
}

function newEvent(
  type: string,
  data: NewStreamEvent['data'],
  eventId: string = randomUUID(),
): NewStreamEvent {
  return { type, data, metadata: { eventId, at: '2025-01-02T03:04:05.678Z', schemaVersion: 1 } };
}

function numbered(count: number, start = 0): NewStreamEvent[] {
  return Array.from({ length: count }, (_, index) => newEvent('Numbered', { n: start + index }));
}

/** The events as the store must hand them back: with revisions from `from` on. */
function stored(events: readonly NewStreamEvent[], from = 0): StreamEvent[] {
  return events.map((event, index) => ({
    ...event,
    metadata: { ...event.metadata, revision: from + index },
  }));
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject, but it fulfilled');
}

async function expectConflict(
  promise: Promise<unknown>,
  streamId: string,
  expected: ExpectedRevision,
  actual: number | 'noStream',
): Promise<void> {
  const error = await rejection(promise);
  expect(error).toBeInstanceOf(Error);
  expect(error).toMatchObject({
    name: 'ConcurrencyError',
    code: 'concurrency',
    streamId,
    expected,
    actual,
  });
}

function collect(events: Observable<StreamEvent>, count: number): Promise<StreamEvent[]> {
  return firstValueFrom(events.pipe(take(count), toArray(), timeout(liveTimeoutMs)));
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function revisions(events: readonly StreamEvent[]): number[] {
  return events.map((event) => event.metadata.revision);
}

/**
 * Registers the vitest suite every `EventStore` adapter must pass (appends, expectations and
 * SPEC RES-3 conflicts, idempotence, reads, subscriptions, validation). `makeStore` runs once for
 * the suite; every test uses fresh stream ids, so a persistent store may reuse one database.
 */
export function describeEventStoreConformance(
  name: string,
  makeStore: () => Promise<ConformanceStore>,
  options: ConformanceOptions = {},
): void {
  if (options.skip !== undefined) {
    describe.skip(`${name} (skipped: ${options.skip})`, () => {
      it('conforms to the EventStore contract', () => undefined);
    });
    return;
  }

  describe(name, () => {
    let made: ConformanceStore | undefined;
    const store = (): EventStore => {
      if (made === undefined) throw new Error('the store was not made');
      return made.store;
    };

    beforeAll(async () => {
      made = await makeStore();
    });
    afterAll(async () => {
      await made?.close?.();
    });

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

      it('hands out copies that cannot change the stored events', async () => {
        const streamId = uniqueStreamId('copies');
        const data = { list: [1, 2], nested: { value: 'original' } };
        const event = newEvent('Copied', data);
        await store().appendToStream(streamId, [event], { expectedRevision: 'noStream' });
        data.list.push(3);
        data.nested.value = 'changed by the caller';
        const [read] = await store().readStream(streamId);
        (read?.data as { nested: { value: string } }).nested.value = 'changed by a reader';
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
          revisions(
            await store().readStream(streamId, { direction: 'backwards', fromRevision: 3 }),
          ),
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

    describe('payloads', () => {
      it('round-trips unicode: emoji, right-to-left text and control characters', async () => {
        const streamId = uniqueStreamId('unicode');
        const data = {
          emoji: '🚀👩‍👩‍👧‍👦🏳️‍🌈 é vs é',
          rtl: 'مرحبا بالعالم — שלום עולם \u202Eabc\u202C',
          control: 'tab\there\nnew line\r\u0001\u0008\u001b[31m\u001f\u007f\u0085\u2028\u2029',
          quotes: `"'\\\`{}[]`,
          astral: '𝄞 𠜎 \uFFFD \uFEFF',
          '🔑 key with émoji': ['ключ', '鍵', 'مفتاح'],
        };
        const event = newEvent('Unicode ✓ événement', data);
        await store().appendToStream(streamId, [event], { expectedRevision: 'noStream' });
        expect(await store().readStream(streamId)).toEqual(stored([event]));
      });

      it('accepts unicode in stream ids', async () => {
        const streamId = uniqueStreamId('ünïcødé-🚀-مرحبا');
        await store().appendToStream(streamId, numbered(1), { expectedRevision: 'noStream' });
        expect(revisions(await store().readStream(streamId))).toEqual([0]);
        expect(await store().listStreams()).toContain(streamId);
      });

      it(
        'round-trips a payload of about 1 MB',
        async () => {
          const streamId = uniqueStreamId('large');
          const chunk = 'agentlog ✓ 🚀 0123456789 abcdefghijklmnopqrstuvwxyz\n';
          const text = chunk.repeat(Math.ceil(1_000_000 / chunk.length));
          const rows = Array.from({ length: 2_000 }, (_, index) => ({
            index,
            label: `row ${index}`,
            ok: index % 2 === 0,
          }));
          const event = newEvent('Large', {
            text,
            rows,
            numbers: [0, -1, 1.5, 1e300, -0.000001, 2 ** 53 - 1],
          });
          expect(JSON.stringify(event).length).toBeGreaterThan(1_000_000);
          await store().appendToStream(streamId, [event], { expectedRevision: 'noStream' });
          expect(await store().readStream(streamId)).toEqual(stored([event]));
        },
        largeTestTimeoutMs,
      );

      it(
        'keeps a stream of 10,000 events appended in batches of 500 and reads it fully and in pages',
        async () => {
          const streamId = uniqueStreamId('ten-thousand');
          const total = 10_000;
          const batchSize = 500;
          let expectedRevision: ExpectedRevision = 'noStream';
          for (let start = 0; start < total; start += batchSize) {
            const result = await store().appendToStream(streamId, numbered(batchSize, start), {
              expectedRevision,
            });
            expect(result.nextExpectedRevision).toBe(start + batchSize - 1);
            expectedRevision = result.nextExpectedRevision;
          }
          const all = await store().readStream(streamId);
          expect(all).toHaveLength(total);
          all.forEach((event, index) => {
            expect(event.metadata.revision).toBe(index);
            expect(event.data).toEqual({ n: index });
          });

          const pageSize = 1_234;
          const paged: number[] = [];
          for (let from = 0; ; from += pageSize) {
            const page = await store().readStream(streamId, {
              fromRevision: from,
              maxCount: pageSize,
            });
            if (page.length === 0) break;
            expect(page.length).toBeLessThanOrEqual(pageSize);
            paged.push(...revisions(page));
          }
          expect(paged).toEqual(revisions(all));

          const backwards = await store().readStream(streamId, {
            direction: 'backwards',
            maxCount: 3,
          });
          expect(revisions(backwards)).toEqual([9_999, 9_998, 9_997]);
        },
        largeTestTimeoutMs,
      );
    });

    describe('listStreams', () => {
      it('lists stream ids in the order they were created', async () => {
        const ids = [
          uniqueStreamId('list'),
          uniqueStreamId('list'),
          uniqueStreamId('list'),
        ] as const;
        await store().appendToStream(ids[0], numbered(1), { expectedRevision: 'noStream' });
        await store().appendToStream(ids[1], numbered(1), { expectedRevision: 'noStream' });
        await store().appendToStream(ids[0], numbered(1, 1), { expectedRevision: 0 });
        await store().appendToStream(ids[2], numbered(1), { expectedRevision: 'any' });
        await store().appendToStream(ids[1], numbered(1, 1), { expectedRevision: 'any' });
        const listed = await store().listStreams();
        expect(listed.filter((id) => (ids as readonly string[]).includes(id))).toEqual([...ids]);
      });
    });

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

      it('hands subscribers copies that cannot change the stored events', async () => {
        const streamId = uniqueStreamId('subscribe-copies');
        await store().appendToStream(streamId, [newEvent('Copied', { value: 'original' })], {
          expectedRevision: 'noStream',
        });
        const [event] = await collect(store().subscribeToStream(streamId), 1);
        (event?.data as { value: string }).value = 'changed by a subscriber';
        const [again] = await store().readStream(streamId);
        expect(again?.data).toEqual({ value: 'original' });
      });
    });

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
  });
}
