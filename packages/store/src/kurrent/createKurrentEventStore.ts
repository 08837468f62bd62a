import type { KurrentDBClient, ResolvedEvent } from '@kurrent/kurrentdb-client';
import { kurrent } from './kurrentDriver.js';
import { Observable } from 'rxjs';
import { AgentError, AgentlogError, InvalidEventError } from '@agentlog/core';
import {
  assertRevisionOption,
  assertValidExpectedRevision,
  assertValidNewEvents,
  assertValidStreamId,
  judgeAppend,
} from '@agentlog/core/store-kit';
import type {
  AppendResult,
  EventStore,
  ExpectedRevision,
  NewStreamEvent,
  ReadStreamOptions,
  StreamEvent,
} from '@agentlog/core';
import {
  fromKurrentEvent,
  fromKurrentRevision,
  isStreamNotFoundError,
  isWrongExpectedVersionError,
  streamNameOfLink,
  toConcurrencyError,
  toKurrentEvent,
  toKurrentReadRevision,
  toKurrentStreamState,
  toKurrentSubscriptionStart,
} from './kurrentMapping.js';
import {
  asStoreError,
  assertNoRevisionGap,
  driverMessage,
  guardStore,
  streamOf,
  streamWhere,
} from '../storeErrors.js';

/**
 * Options of `createKurrentEventStore`: a connection string, or a client you configured yourself
 * (credentials provider, TLS...), which `close()` then leaves open.
 */
export type KurrentEventStoreOptions =
  | {
      /** A KurrentDB connection string, e.g. `kurrentdb://localhost:2113?tls=false`. */
      readonly connectionString: string;
    }
  | { readonly client: KurrentDBClient };

/** A KurrentDB event store; `close()` ends its connection. */
export interface KurrentEventStore extends EventStore {
  /**
   * Stops the live subscriptions (with an `AgentlogError('closed')`) and disposes the client if
   * the store created it from a connection string.
   */
  close(): Promise<void>;
}

/** How many streams' event ids a store keeps to answer idempotent appends without re-reading. */
const cachedStreams = 1_000;
/** How many streams created by this store `listStreams` remembers until `$streams` shows them. */
const rememberedCreations = 10_000;
/** Every retry follows an append by another writer; this only bounds pathological contention. */
const maxAppendAttempts = 1_000;

/** What the store knows of a stream: its last revision and the revisions of its event ids. */
interface KnownStream {
  last: number | 'noStream';
  readonly revisionByEventId: Map<string, number>;
}

/**
 * Creates an event store on KurrentDB (formerly EventStoreDB), through `@kurrent/kurrentdb-client`.
 * It follows the `EventStore` contract exactly like the in-memory store:
 *
 * - Expected revisions map to KurrentDB stream states (`'noStream'` → `no_stream`, `'streamExists'`
 *   → `stream_exists`, `'any'` → `any`, n → `BigInt(n)`), a `WrongExpectedVersionError` to our
 *   `ConcurrencyError`.
 * - Idempotence by `eventId` is agentlog's, not KurrentDB's (which only recognises a retry of a
 *   whole batch at the same expected version): the store reads the stream's event ids once, keeps
 *   them for the last 1,000 streams it appended to and catches up on each append, then appends
 *   only the new events at the exact revision it saw, re-checking when another writer got there
 *   first. It assumes streams are not deleted or truncated (`$maxCount`, `$tb`) behind its back.
 * - Event ids become KurrentDB event ids when they are lower-case UUIDs, else a name-based UUID
 *   (v5) derived from them; our metadata (with our `eventId`) is the KurrentDB event metadata.
 * - `subscribeToStream` is a KurrentDB catch-up subscription.
 * - `listStreams` reads the `$streams` system projection, so it needs system projections running
 *   (`--run-projections=System --start-standard-projections=true`, or the `KURRENTDB_RUN_PROJECTIONS`
 *   and `KURRENTDB_START_STANDARD_PROJECTIONS` settings) and throws `AgentlogError('unsupported')`
 *   when they are off. The projection runs behind the appends: streams this store created and the
 *   projection does not show yet are listed after the others. Stream names starting with `$`
 *   (KurrentDB system streams) are not listed; do not use such stream ids with this store.
 */
export function createKurrentEventStore(options: KurrentEventStoreOptions): KurrentEventStore {
  const owned = 'connectionString' in options;
  const label = owned ? kurrentLabel(options.connectionString) : 'KurrentDB store';
  const where = (streamId: string): string => streamWhere(label, streamId);
  const client = owned ? openClient(label, options.connectionString) : options.client;
  const known = new Map<string, KnownStream>();
  const createdHere = new Set<string>();
  const live = new Set<(error: unknown) => void>();
  let closing: Promise<void> | undefined;

  /** Brings what the store knows of a stream up to date, reading only what is new. */
  const catchUp = async (streamId: string): Promise<KnownStream> => {
    const stream = known.get(streamId) ?? { last: 'noStream', revisionByEventId: new Map() };
    // Most recently used last, so the first key is the one to forget.
    known.delete(streamId);
    known.set(streamId, stream);
    if (known.size > cachedStreams) {
      const oldest = known.keys().next();
      if (oldest.done !== true) known.delete(oldest.value);
    }
    const from = stream.last === 'noStream' ? 0 : stream.last + 1;
    for (const event of await readEvents(client, label, streamId, { fromRevision: from })) {
      const revision = event.metadata.revision;
      // Concurrent catch-ups of one stream may both see an event: apply each once, in order.
      if (revision !== (stream.last === 'noStream' ? 0 : stream.last + 1)) continue;
      stream.revisionByEventId.set(event.metadata.eventId, revision);
      stream.last = revision;
    }
    return stream;
  };

  const append = async (
    streamId: string,
    events: readonly NewStreamEvent[],
    expectedRevision: ExpectedRevision | undefined,
  ): Promise<AppendResult> => {
    assertValidStreamId(streamId);
    assertValidExpectedRevision(expectedRevision);
    assertValidNewEvents(events);
    const proposed = events.map(toKurrentEvent);
    return guardStore(where(streamId), 'the append failed', () =>
      appendProposed(streamId, events, expectedRevision, proposed),
    );
  };

  /** The append once validated: catch up, check the expectation, append what is new, retry on a race. */
  const appendProposed = async (
    streamId: string,
    events: readonly NewStreamEvent[],
    expectedRevision: ExpectedRevision,
    proposed: ReturnType<typeof toKurrentEvent>[],
  ): Promise<AppendResult> => {
    for (let attempt = 1; ; attempt += 1) {
      const stream = await catchUp(streamId);
      const actual = stream.last;
      const decision = judgeAppend(
        { streamId, last: actual, revisionOf: (id) => stream.revisionByEventId.get(id) },
        events.map((event) => event.metadata.eventId),
        expectedRevision,
      );
      if (decision.kind === 'conflict') throw decision.error;
      if (decision.kind === 'alreadyStored')
        return { nextExpectedRevision: decision.nextExpectedRevision };
      const fresh = decision.indexes.map((index) => ({
        id: (events[index] as NewStreamEvent).metadata.eventId,
        data: proposed[index] as ReturnType<typeof toKurrentEvent>,
      }));
      try {
        const result = await client.appendToStream(
          streamId,
          fresh.map((event) => event.data),
          { streamState: toKurrentStreamState(actual) },
        );
        const next = fromKurrentRevision(result.nextExpectedRevision);
        if (stream.last === actual) {
          fresh.forEach((event, index) =>
            stream.revisionByEventId.set(event.id, next - fresh.length + 1 + index),
          );
          stream.last = next;
        }
        if (actual === 'noStream') remember(createdHere, streamId);
        return { nextExpectedRevision: next };
      } catch (error) {
        // Another writer appended since the catch-up: look again.
        if (!isWrongExpectedVersionError(error)) throw error;
        if (attempt >= maxAppendAttempts)
          throw toConcurrencyError(error, streamId, expectedRevision);
      }
    }
  };

  const subscribe = (streamId: string, fromRevision: number | undefined) =>
    new Observable<StreamEvent>((subscriber) => {
      assertValidStreamId(streamId);
      assertRevisionOption('fromRevision', fromRevision);
      let next = fromRevision ?? 0;
      const fail = (error: unknown): void => {
        if (!subscriber.closed)
          subscriber.error(asStoreError(error, where(streamId), 'the subscription failed'));
      };
      let subscription: ReturnType<KurrentDBClient['subscribeToStream']>;
      try {
        subscription = client.subscribeToStream(streamId, {
          fromRevision: toKurrentSubscriptionStart(fromRevision),
        });
      } catch (error) {
        fail(error);
        return undefined;
      }
      live.add(fail);
      subscription.on('data', (resolved: ResolvedEvent) => {
        if (resolved.event === undefined || subscriber.closed) return;
        let event: StreamEvent;
        try {
          // An event handler: a throw here would be an uncaught exception.
          event = toStreamEvent(resolved.event, label, streamId);
        } catch (error) {
          fail(error);
          return;
        }
        const revision = event.metadata.revision;
        // Never deliver an event twice, whatever the subscription replays; never skip one silently.
        if (revision < next) return;
        if (revision > next) {
          fail(
            new AgentlogError(
              'subscriptionGap',
              `stream ${streamId}: the KurrentDB subscription delivered revision ${revision} where ${next} was due`,
            ),
          );
          return;
        }
        next += 1;
        subscriber.next(event);
      });
      subscription.on('error', fail);
      return () => {
        live.delete(fail);
        subscription.unsubscribe().catch(() => undefined);
      };
    });

  const list = (): Promise<string[]> =>
    guardStore(label, 'listing the streams failed', listProjected);

  const listProjected = async (): Promise<string[]> => {
    const names: string[] = [];
    const listed = new Set<string>();
    let projected = true;
    try {
      for await (const resolved of client.readStream(kurrent.STREAMS_STREAM, {
        resolveLinkTos: false,
      })) {
        const link = resolved.link ?? resolved.event;
        const name = streamNameOfLink(link?.data);
        if (name === undefined || name.startsWith('$') || listed.has(name)) continue;
        listed.add(name);
        names.push(name);
      }
    } catch (error) {
      if (!isStreamNotFoundError(error)) throw error;
      projected = false;
    }
    if (!projected) await assertStreamsProjectionRuns(client);
    for (const name of listed) createdHere.delete(name);
    return [...names, ...createdHere];
  };

  return {
    label,
    appendToStream: (streamId, events, appendOptions) =>
      append(streamId, events, appendOptions?.expectedRevision),
    readStream: async (streamId, readOptions) => {
      assertValidStreamId(streamId);
      assertRevisionOption('fromRevision', readOptions?.fromRevision);
      assertRevisionOption('maxCount', readOptions?.maxCount);
      const read = readOptions ?? {};
      const events = await guardStore(where(streamId), 'the read failed', () =>
        readEvents(client, label, streamId, read),
      );
      assertNoRevisionGap(streamId, label, events, read);
      return events;
    },
    subscribeToStream: (streamId, subscribeOptions) =>
      subscribe(streamId, subscribeOptions?.fromRevision),
    listStreams: list,
    close: () =>
      (closing ??= guardStore(label, 'closing the store failed', async () => {
        const closed = new AgentlogError('closed', 'the KurrentDB event store was closed');
        for (const fail of [...live]) fail(closed);
        if (owned) await client.dispose();
      })),
  };
}

/**
 * The events of a stream as the client reads them. Throws what the client throws (the callers make
 * it `storeUnavailable`), and `InvalidEventError` for an event that is not one of ours.
 */
async function readEvents(
  client: KurrentDBClient,
  label: string,
  streamId: string,
  options: ReadStreamOptions,
): Promise<StreamEvent[]> {
  if (options.maxCount === 0) return [];
  const direction = options.direction === 'backwards' ? kurrent.BACKWARDS : kurrent.FORWARDS;
  const events: StreamEvent[] = [];
  try {
    for await (const resolved of client.readStream(streamId, {
      direction,
      fromRevision: toKurrentReadRevision(options.fromRevision, options.direction ?? 'forwards'),
      ...(options.maxCount === undefined ? {} : { maxCount: options.maxCount }),
    })) {
      if (resolved.event !== undefined) events.push(toStreamEvent(resolved.event, label, streamId));
    }
  } catch (error) {
    if (isStreamNotFoundError(error)) return [];
    throw error;
  }
  return events;
}

/** A recorded event as ours; one agentlog cannot take is an `InvalidEventError` naming the stream. */
function toStreamEvent(
  recorded: Parameters<typeof fromKurrentEvent>[0],
  label: string,
  streamId: string,
): StreamEvent {
  try {
    return fromKurrentEvent(recorded);
  } catch (error) {
    const revision = Number(recorded.revision);
    throw new InvalidEventError(
      recorded.type,
      Number.isSafeInteger(revision) ? revision : undefined,
      `${streamOf(streamId, label)}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/** The store as messages name it: its host from the connection string (never credentials). */
function kurrentLabel(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    return url.host === '' ? 'KurrentDB store' : `KurrentDB store ${url.host}`;
  } catch {
    return 'KurrentDB store';
  }
}

/** A connection string the client refuses: a configuration error, naming the store. */
function openClient(label: string, connectionString: string): KurrentDBClient {
  try {
    return kurrent.KurrentDBClient.connectionString(connectionString);
  } catch (error) {
    throw new AgentError(
      'invalidConfiguration',
      `${label}: the client refuses the connection string: ${driverMessage(error)}`,
      { cause: error },
    );
  }
}

async function assertStreamsProjectionRuns(client: KurrentDBClient): Promise<void> {
  let status: string;
  try {
    status = (await client.getProjectionStatus(kurrent.STREAMS_STREAM)).projectionStatus;
  } catch (error) {
    status = `unavailable (${driverMessage(error)})`;
  }
  if (status !== 'Running') {
    throw new AgentlogError(
      'unsupported',
      `listStreams reads the KurrentDB system projection $streams, which is ${status}: start KurrentDB with system projections (--run-projections=System --start-standard-projections=true)`,
    );
  }
}

/** Adds `name` to an insertion-ordered set, forgetting the oldest beyond its capacity. */
function remember(names: Set<string>, name: string): void {
  names.add(name);
  if (names.size > rememberedCreations) {
    const oldest = names.values().next();
    if (oldest.done !== true) names.delete(oldest.value);
  }
}
