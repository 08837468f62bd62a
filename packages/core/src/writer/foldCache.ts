import type { AgentState } from '../events/agentState.js';
import { foldStream } from '../events/foldEvents.js';
import type { EventStore, StreamEvent } from '../ports/eventStore.js';
import { InvalidEventError } from '../errors/invalidEventError.js';
import { storeFault } from './storeFault.js';
import type { FingerprintSnapshot } from '../events/requestFingerprint.js';

/** The fold of a stream as an agent of this process last saw it, and the id of its last event. */
interface CachedFold {
  readonly state: AgentState;
  readonly eventId: string;
  /** Where the fingerprint progress of the stream's agent is read, when a new agent needs it. */
  readonly fingerprints?: FingerprintSource;
}

/** What keeps the request fingerprint's progress: its `snapshot()` is taken only when needed. */
export interface FingerprintSource {
  snapshot(): FingerprintSnapshot | undefined;
}

// Per store object, the last fold of each stream: a cache of a pure function of the stream's
// events, never a second source of truth. It is checked against the store on every use.
const caches = new WeakMap<EventStore, Map<string, CachedFold>>();
const streamsPerStore = 256;

/** Remembers the fold of `streamId` up to the event `eventId` (the one at `state.revision`). */
export function rememberFold(
  store: EventStore,
  streamId: string,
  state: AgentState,
  eventId: string,
): void {
  let cache = caches.get(store);
  if (cache === undefined) {
    cache = new Map();
    caches.set(store, cache);
  }
  const previous = cache.get(streamId);
  cache.delete(streamId);
  // The oldest stream makes room: Map keeps insertion order.
  if (cache.size >= streamsPerStore) cache.delete(cache.keys().next().value as string);
  const fingerprints =
    previous?.fingerprints !== undefined && previous.state.revision <= state.revision
      ? previous.fingerprints
      : undefined;
  cache.set(streamId, { state, eventId, ...(fingerprints === undefined ? {} : { fingerprints }) });
}

/**
 * Remembers where the request fingerprint of `streamId` is kept. Its progress is copied when a new
 * agent on the stream asks for it, not at every step: a fingerprint over the same history is
 * valid whatever point of the history a fold stands at, since the history only grows (a request
 * shorter than what was hashed starts the hash again).
 */
export function rememberFingerprints(
  store: EventStore,
  streamId: string,
  fingerprints: FingerprintSource,
): void {
  const cached = caches.get(store)?.get(streamId);
  if (cached !== undefined && cached.fingerprints !== fingerprints)
    caches.get(store)?.set(streamId, { ...cached, fingerprints });
}

/** What `foldOfStream` found: the state, and the fingerprint progress that goes with it. */
export interface StreamFold {
  readonly state: AgentState;
  readonly fingerprints?: FingerprintSnapshot;
}

/**
 * How many events `foldOfStream` reads at a time. Every store's page read is a ranged read
 * (SQLite and PostgreSQL: an index range with `LIMIT`; KurrentDB: `maxCount`; the in-memory and
 * read-only JSONL stores: a slice of what they hold), so a build holds one page of parsed events,
 * never the whole stream: with pages of 1,000, most of a page dies young.
 */
export const foldPageSize = 1_000;

/**
 * Folds a stream (SPEC RES-1), starting from the fold this process last saw of it when the store
 * still holds that fold's last event at its revision: then only the events after it are read.
 * A cached fold that no longer matches the stream is discarded with a warning, and the stream is
 * folded from its start. Either way the state equals the fold of the whole stream. The stream is
 * read in pages of `foldPageSize` events, each folded before the next is read; the fold checks
 * that revisions follow each other across pages as within one. (`pageSize` is there for tests.)
 */
export async function foldOfStream(
  store: EventStore,
  streamId: string,
  warn: (message: string) => void,
  pageSize = foldPageSize,
): Promise<StreamFold> {
  const readPage = (fromRevision: number): Promise<StreamEvent[]> =>
    store.readStream(streamId, { fromRevision, maxCount: pageSize }).catch((error: unknown) => {
      throw storeFault(error, streamId, 'read');
    });
  const cached = caches.get(store)?.get(streamId);
  if (cached !== undefined) {
    const { revision } = cached.state;
    const page = await readPage(revision);
    const first = page[0];
    if (first?.metadata.revision === revision && first.metadata.eventId === cached.eventId) {
      const folded = await foldPages(store, streamId, readPage, pageSize, page, 1, cached.state);
      if (folded.lastEventId !== undefined)
        rememberFold(store, streamId, folded.state, folded.lastEventId);
      const fingerprints = cached.fingerprints?.snapshot();
      return { state: folded.state, ...(fingerprints === undefined ? {} : { fingerprints }) };
    }
    warn(
      `stream ${streamId}: the fold this process kept up to revision ${revision} no longer matches the store (${first === undefined ? 'that revision is gone' : `event ${first.metadata.eventId} is there now, not ${cached.eventId}`}); folding the stream from its start`,
    );
    caches.get(store)?.delete(streamId);
  }
  const folded = await foldPages(store, streamId, readPage, pageSize, await readPage(0), 0);
  if (folded.lastEventId !== undefined)
    rememberFold(store, streamId, folded.state, folded.lastEventId);
  return { state: folded.state };
}

/**
 * Folds `firstPage` from its index `skip` onto `from`, then the pages after it until a short
 * one. `lastEventId` is the id of the last event folded, if any was.
 */
async function foldPages(
  store: EventStore,
  streamId: string,
  readPage: (fromRevision: number) => Promise<StreamEvent[]>,
  pageSize: number,
  firstPage: readonly StreamEvent[],
  skip: number,
  from?: AgentState,
): Promise<{ readonly state: AgentState; readonly lastEventId: string | undefined }> {
  let page = firstPage;
  let state = foldRead(store, streamId, skip === 0 ? page : page.slice(skip), from).state;
  let lastEventId = page.length > skip ? page.at(-1)?.metadata.eventId : undefined;
  // A full page may have more after it; a short one is the end of the stream.
  for (let last = page.at(-1); last !== undefined && page.length >= pageSize; last = page.at(-1)) {
    page = await readPage(last.metadata.revision + 1);
    state = foldRead(store, streamId, page, state).state;
    lastEventId = page.at(-1)?.metadata.eventId ?? lastEventId;
  }
  return { state, lastEventId };
}

/** Folds what was read; a bad event is reported with its stream and store (SPEC EVT-4). */
export function foldRead(
  store: EventStore,
  streamId: string,
  stored: readonly StreamEvent[],
  state?: AgentState,
): ReturnType<typeof foldStream> {
  try {
    return foldStream(stored, state);
  } catch (error) {
    throw InvalidEventError.within(error, streamId, store.label);
  }
}
