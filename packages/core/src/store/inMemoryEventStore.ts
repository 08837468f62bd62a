import { judgeAppend } from './judgeAppend.js';
import { frozenJsonCopy } from '../support/frozenJsonCopy.js';
import { isCheckedBatch } from './checkedBatch.js';
import { assertRevisionOption, assertValidExpectedRevision } from './expectedRevision.js';
import { Observable } from 'rxjs';
import type {
  AppendOptions,
  AppendResult,
  EventStore,
  ExpectedRevision,
  NewStreamEvent,
  ReadStreamOptions,
  StreamEvent,
} from '../ports/eventStore.js';
import { createInMemoryWorkIndex, type InMemoryWorkIndex } from './inMemoryWorkIndex.js';
import { createStreamDrain } from './streamDrain.js';
import { assertValidNewEvents, assertValidStreamId } from './streamValidation.js';
import { assertValidWorkEntry } from './workIndexChecks.js';
import { assertFenceOptions, judgeFence } from './judgeFence.js';

interface StoredStream {
  /**
   * Each event as a deeply frozen copy of plain JSON, what a round trip through JSON gives: no
   * reader can change it, so every reader gets the same objects and none is copied on read.
   */
  readonly events: StreamEvent[];
  readonly revisionByEventId: Map<string, number>;
}

interface InMemoryState {
  readonly streams: Map<string, StoredStream>;
  readonly listeners: Map<string, Set<() => void>>;
  readonly work: InMemoryWorkIndex;
}

const states = new WeakMap<EventStore, InMemoryState>();

/** Options of the in-memory store. */
export interface InMemoryStoreOptions {
  /** The store's clock, on which its work index judges leases (SPEC WRK-4). Default: the wall clock. */
  readonly clock?: () => Date;
}

/**
 * Creates an event store that keeps its streams in memory: for tests, examples and short-lived
 * agents. It follows the `EventStore` contract exactly (revisions, expectations, idempotence by
 * `eventId`, catch-up subscriptions). It keeps each event deeply frozen and hands that out: no
 * reader can change what another reads. Its work index (`store.work`, SPEC WRK-6) is written in
 * the same step as the events.
 */
export function createInMemoryEventStore(options: InMemoryStoreOptions = {}): EventStore {
  const clock = options.clock ?? (() => new Date());
  const state: InMemoryState = {
    streams: new Map(),
    listeners: new Map(),
    work: createInMemoryWorkIndex(clock),
  };
  const store: EventStore = {
    label: 'the in-memory store',
    appendToStream: (streamId, events, options) =>
      settle(() => append(state, streamId, events, options)),
    readStream: (streamId, options) => settle(() => read(state, streamId, options ?? {})),
    subscribeToStream: (streamId, options) => subscribe(state, streamId, options?.fromRevision),
    listStreams: () => settle(() => [...state.streams.keys()]),
    // The port without `record`: only an append writes the index.
    work: state.work.index,
  };
  states.set(store, state);
  return store;
}

/** Runs `work` now, turning what it returns or throws into a promise (a throw becomes a rejection). */
function settle<T>(work: () => T): Promise<T> {
  return new Promise((resolve) => resolve(work()));
}

/**
 * Test-only introspection: how many live subscriptions an in-memory store is feeding, across all
 * streams. Returns 0 for a store that `createInMemoryEventStore` did not make.
 */
export function countInMemorySubscriptions(store: EventStore): number {
  const state = states.get(store);
  if (state === undefined) return 0;
  let count = 0;
  for (const listeners of state.listeners.values()) count += listeners.size;
  return count;
}

function append(
  state: InMemoryState,
  streamId: string,
  events: readonly NewStreamEvent[],
  options: AppendOptions | undefined,
): AppendResult {
  const expectedRevision: ExpectedRevision | undefined = options?.expectedRevision;
  assertValidStreamId(streamId);
  assertValidExpectedRevision(expectedRevision);
  assertValidNewEvents(events);
  if (options?.work !== undefined) assertValidWorkEntry(streamId, options.work);
  if (options !== undefined) assertFenceOptions(streamId, options);

  const stream = state.streams.get(streamId);
  const decision = judgeAppend(
    {
      streamId,
      last: stream === undefined ? 'noStream' : stream.events.length - 1,
      revisionOf: (id) => stream?.revisionByEventId.get(id),
    },
    events.map((event) => event.metadata.eventId),
    expectedRevision,
  );
  if (decision.kind === 'alreadyStored')
    return { nextExpectedRevision: decision.nextExpectedRevision };
  // The run's fence is judged before the revision: a stale holder learns it lost the run.
  const claims = judgeFence(
    streamId,
    state.work.fenced(streamId),
    events,
    options ?? { expectedRevision },
    state.work.now(),
  );
  if (decision.kind === 'conflict') throw decision.error;
  // A claim of a run whose agent name is at its cap, counted now (SPEC WRK-10).
  if (claims && options?.work !== undefined) state.work.judgeCap(streamId, options);

  // Copied before the first write, so nothing can fail half-way.
  const { indexes, firstRevision } = decision;
  const copies = new Array<StreamEvent>(indexes.length);
  const checked = isCheckedBatch(events);
  for (let index = 0; index < indexes.length; index += 1) {
    const { type, data, metadata } = events[indexes[index] as number] as NewStreamEvent;
    copies[index] = storedCopy(checked, type, data, {
      ...metadata,
      revision: firstRevision + index,
    });
  }
  const target = stream ?? { events: [], revisionByEventId: new Map<string, number>() };
  if (stream === undefined) state.streams.set(streamId, target);
  for (let index = 0; index < copies.length; index += 1) {
    const { eventId } = (events[indexes[index] as number] as NewStreamEvent).metadata;
    target.revisionByEventId.set(eventId, target.events.length);
    target.events.push(copies[index] as StreamEvent);
  }
  // The index entry goes in with the events, in the same synchronous step (SPEC WRK-6).
  if (options?.work !== undefined)
    state.work.record(streamId, options.work, claims ? firstRevision : undefined);
  const listeners = state.listeners.get(streamId);
  if (listeners !== undefined) for (const listener of [...listeners]) listener();
  return { nextExpectedRevision: decision.nextExpectedRevision };
}

function read(state: InMemoryState, streamId: string, options: ReadStreamOptions): StreamEvent[] {
  assertValidStreamId(streamId);
  assertRevisionOption('fromRevision', options.fromRevision);
  assertRevisionOption('maxCount', options.maxCount);
  const events = state.streams.get(streamId)?.events ?? [];
  const maxCount = options.maxCount ?? Number.POSITIVE_INFINITY;
  if (options.direction === 'backwards') {
    const from = Math.min(options.fromRevision ?? events.length - 1, events.length - 1);
    const result: StreamEvent[] = [];
    for (let revision = from; revision >= 0 && result.length < maxCount; revision -= 1) {
      const event = events[revision];
      if (event !== undefined) result.push(event);
    }
    return result;
  }
  const from = options.fromRevision ?? 0;
  return events.slice(from, from + maxCount);
}

function subscribe(
  state: InMemoryState,
  streamId: string,
  fromRevision: number | undefined,
): Observable<StreamEvent> {
  return new Observable<StreamEvent>((subscriber) => {
    // Thrown here, these reach the subscriber as an error notification.
    assertValidStreamId(streamId);
    assertRevisionOption('fromRevision', fromRevision);

    const drain = createStreamDrain(
      subscriber,
      fromRevision ?? 0,
      (from) => state.streams.get(streamId)?.events.slice(from, from + 500) ?? [],
    );

    let listeners = state.listeners.get(streamId);
    if (listeners === undefined) {
      listeners = new Set();
      state.listeners.set(streamId, listeners);
    }
    const registered = listeners;
    registered.add(drain);
    drain();

    return () => {
      registered.delete(drain);
      if (registered.size === 0 && state.listeners.get(streamId) === registered)
        state.listeners.delete(streamId);
    };
  });
}

/**
 * The event as the store keeps it, deeply frozen. The events of a batch the writer checked and
 * froze (every append an agent makes, `markCheckedBatch`) keep their data as it is; any other
 * caller's data and metadata are copied. A copy is the value a JSON round trip gives; the data was
 * checked to be plain JSON before.
 */
function storedCopy(
  checked: boolean,
  type: string,
  data: unknown,
  metadata: StreamEvent['metadata'],
): StreamEvent {
  return Object.freeze({
    type,
    data: checked ? data : frozenJsonCopy(data),
    // Of a checked batch, three fields of primitives and the revision.
    metadata: checked ? Object.freeze(metadata) : frozenJsonCopy(metadata),
  });
}
