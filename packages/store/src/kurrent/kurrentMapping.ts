import { createHash } from 'node:crypto';
import type {
  AppendStreamState,
  CurrentStreamState,
  EventData,
  JSONType,
  ReadRevision,
  RecordedEvent,
} from '@kurrent/kurrentdb-client';
import { kurrent } from './kurrentDriver.js';
import { ConcurrencyError } from '@agentlog/core';
import type { EventMetadata, ExpectedRevision, NewStreamEvent, StreamEvent } from '@agentlog/core';

// Pure translations between agentlog's EventStore vocabulary and the KurrentDB client's. No I/O:
// unit-tested without a server.

/** Our expected revision as the client's `streamState` of `appendToStream`. */
export function toKurrentStreamState(expected: ExpectedRevision): AppendStreamState {
  switch (expected) {
    case 'any':
      return kurrent.ANY;
    case 'noStream':
      return kurrent.NO_STREAM;
    case 'streamExists':
      return kurrent.STREAM_EXISTS;
    default:
      return BigInt(expected);
  }
}

/** The client's expected state (of an append or a `WrongExpectedVersionError`) in our terms. */
export function fromKurrentStreamState(state: AppendStreamState): ExpectedRevision {
  switch (state) {
    case kurrent.ANY:
      return 'any';
    case kurrent.NO_STREAM:
      return 'noStream';
    case kurrent.STREAM_EXISTS:
      return 'streamExists';
    default:
      return fromKurrentRevision(state);
  }
}

/** A stream's current state as the client reports it: `'no_stream'` or its last revision. */
export function fromKurrentCurrentState(state: CurrentStreamState): number | 'noStream' {
  return state === kurrent.NO_STREAM ? 'noStream' : fromKurrentRevision(state);
}

/** A KurrentDB revision (`bigint`) as ours; throws a `RangeError` beyond 2^53 - 1. */
export function fromKurrentRevision(revision: bigint): number {
  const number = Number(revision);
  if (revision < 0n || !Number.isSafeInteger(number)) {
    throw new RangeError(`KurrentDB revision ${revision} is not a revision agentlog can hold`);
  }
  return number;
}

/** Our `fromRevision` of `readStream` (inclusive) as the client's. */
export function toKurrentReadRevision(
  fromRevision: number | undefined,
  direction: 'forwards' | 'backwards',
): ReadRevision {
  if (fromRevision === undefined) return direction === 'backwards' ? kurrent.END : kurrent.START;
  return BigInt(fromRevision);
}

/**
 * Our `fromRevision` of `subscribeToStream` as the client's. A KurrentDB catch-up subscription
 * starts *after* the revision it is given (exclusive), ours at it (inclusive): revision n becomes
 * n - 1, and 0 becomes `START`.
 */
export function toKurrentSubscriptionStart(fromRevision: number | undefined): ReadRevision {
  if (fromRevision === undefined || fromRevision === 0) return kurrent.START;
  return BigInt(fromRevision - 1);
}

/** The fields of the client's `WrongExpectedVersionError` that the mapping reads. */
export interface WrongExpectedVersionLike {
  readonly type: 'wrong-expected-version';
  readonly streamName: string;
  readonly expectedState: AppendStreamState;
  readonly actualState: CurrentStreamState;
}

/**
 * True for the client's `WrongExpectedVersionError`, recognised by its `type` (the client sets
 * neither `name` nor a stable prototype across copies of the package).
 */
export function isWrongExpectedVersionError(error: unknown): error is WrongExpectedVersionLike {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as { type?: unknown }).type === 'wrong-expected-version'
  );
}

/** True for the client's `StreamNotFoundError` (reading a stream that does not exist). */
export function isStreamNotFoundError(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    (error as { type?: unknown }).type === 'stream-not-found'
  );
}

/**
 * The client's `WrongExpectedVersionError` as our `ConcurrencyError`. `expected` is what the caller
 * of `appendToStream` expected (the adapter may have sent KurrentDB a more precise state); without
 * it, the error's own `expectedState` is used. The actual revision is `'noStream'` when the stream
 * does not exist.
 */
export function toConcurrencyError(
  error: WrongExpectedVersionLike,
  streamId: string = error.streamName,
  expected: ExpectedRevision = fromKurrentStreamState(error.expectedState),
): ConcurrencyError {
  return new ConcurrencyError(streamId, expected, fromKurrentCurrentState(error.actualState));
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The namespace of the name-based UUIDs derived from event ids that are not UUIDs. */
export const agentlogEventIdNamespace = '1b671a64-40d5-491e-99b0-da01ff1e3341';

/**
 * The KurrentDB event id (a UUID) of one of our event ids: a lower-case UUID is used as it is;
 * anything else becomes a name-based UUID version 5 (SHA-1 of `namespace` and the id, RFC 9562),
 * so the same event id always gives the same KurrentDB id. Our event id itself travels in the
 * event's metadata.
 */
export function kurrentEventId(
  eventId: string,
  namespace: string = agentlogEventIdNamespace,
): string {
  if (uuidPattern.test(eventId)) return eventId;
  const hash = createHash('sha1')
    .update(Buffer.from(namespace.replaceAll('-', ''), 'hex'))
    .update(eventId, 'utf8')
    .digest();
  hash[6] = ((hash[6] ?? 0) & 0x0f) | 0x50; // version 5
  hash[8] = ((hash[8] ?? 0) & 0x3f) | 0x80; // RFC variant
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Our event as a KurrentDB JSON event. Its metadata is ours, as it is (event id, time, schema
 * version and anything else it holds); the client writes data and metadata with `JSON.stringify`
 * and reads them with `JSON.parse`, so key order survives.
 */
export function toKurrentEvent(event: NewStreamEvent): EventData {
  return kurrent.jsonEvent({
    id: kurrentEventId(event.metadata.eventId),
    type: event.type,
    // The client types data as object, array or string; any JSON value goes through JSON.stringify.
    data: event.data as JSONType,
    metadata: event.metadata as unknown as JSONType,
  });
}

/**
 * A recorded KurrentDB event as ours. An event written without agentlog metadata (by another
 * client) gets its KurrentDB id as `eventId`, its creation time as `at` and schema version 1; a
 * binary event's data is parsed as JSON text when it is, else kept as a UTF-8 string.
 */
export function fromKurrentEvent(recorded: RecordedEvent): StreamEvent {
  const stored: unknown = recorded.metadata;
  const ours =
    typeof stored === 'object' &&
    stored !== null &&
    !Array.isArray(stored) &&
    !(stored instanceof Uint8Array) &&
    typeof (stored as { eventId?: unknown }).eventId === 'string'
      ? (stored as Omit<EventMetadata, 'revision'>)
      : { eventId: recorded.id, at: recorded.created.toISOString(), schemaVersion: 1 };
  return {
    type: recorded.type,
    data: recorded.isJson ? recorded.data : binaryData(recorded.data),
    metadata: { ...ours, revision: fromKurrentRevision(recorded.revision) },
  };
}

function binaryData(data: unknown): unknown {
  if (!(data instanceof Uint8Array)) return data;
  const text = Buffer.from(data).toString('utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/**
 * The stream name a link event of the `$streams` system projection points to: its data is
 * `"<revision>@<stream name>"`. Returns `undefined` for anything else.
 */
export function streamNameOfLink(data: unknown): string | undefined {
  let text: string;
  if (data instanceof Uint8Array) text = Buffer.from(data).toString('utf8');
  else if (typeof data === 'string') text = data;
  else return undefined;
  const match = /^\d+@/.exec(text);
  if (match === null) return undefined;
  const name = text.slice(match[0].length);
  return name === '' ? undefined : name;
}
