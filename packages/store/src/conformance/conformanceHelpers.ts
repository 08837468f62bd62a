import { randomBytes, randomUUID } from 'node:crypto';
import { firstValueFrom, type Observable, take, timeout, toArray } from 'rxjs';
import { expect } from 'vitest';
import type { EventStore, ExpectedRevision, NewStreamEvent, StreamEvent } from '@agentlog/core';

/** Lazily gives the store under test; it is made in `beforeAll`, after the tests are registered. */
export type StoreUnderTest = () => EventStore;

/** How long a test waits for a live event before it fails. */
export const liveTimeoutMs = 5_000;
/** How long a test waits to be sure that something does not arrive. */
export const quietMs = 100;
/** The timeout of the tests that move megabytes or thousands of events. */
export const largeTestTimeoutMs = 120_000;

let streamCounter = 0;

/** A stream id no other test (nor an earlier run against the same database) uses. */
export function uniqueStreamId(label: string): string {
  streamCounter += 1;
  return `conformance-${label}-${streamCounter}-${randomBytes(6).toString('hex')}`;
}

/** An event to append, with a fresh `eventId` unless one is given. */
export function newEvent(
  type: string,
  data: NewStreamEvent['data'],
  eventId: string = randomUUID(),
): NewStreamEvent {
  return { type, data, metadata: { eventId, at: '2025-01-02T03:04:05.678Z', schemaVersion: 1 } };
}

/** `count` events of type `Numbered` whose data counts from `start`. */
export function numbered(count: number, start = 0): NewStreamEvent[] {
  return Array.from({ length: count }, (_, index) => newEvent('Numbered', { n: start + index }));
}

/** The events as the store must hand them back: with revisions from `from` on. */
export function stored(events: readonly NewStreamEvent[], from = 0): StreamEvent[] {
  return events.map((event, index) => ({
    ...event,
    metadata: { ...event.metadata, revision: from + index },
  }));
}

/** The reason `promise` rejects with; fails the test if it fulfils. */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject, but it fulfilled');
}

/** Expects `promise` to reject with a `ConcurrencyError` carrying these fields. */
export async function expectConflict(
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

/** The first `count` events of a subscription, failing after `liveTimeoutMs`. */
export function collect(events: Observable<StreamEvent>, count: number): Promise<StreamEvent[]> {
  return firstValueFrom(events.pipe(take(count), toArray(), timeout(liveTimeoutMs)));
}

/** Resolves after `ms` milliseconds. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The revisions of `events`, in their order. */
export function revisions(events: readonly StreamEvent[]): number[] {
  return events.map((event) => event.metadata.revision);
}

/**
 * Runs a reader's attempt to change an event it was handed. A store hands out either a copy,
 * which the reader may change, or the frozen event itself, which refuses the change with a
 * `TypeError`; anything else thrown fails the test.
 */
export function changeOrRefuse(change: () => void): void {
  try {
    change();
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
  }
}
