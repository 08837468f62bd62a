import { randomUUID } from 'node:crypto';
import {
  ANY,
  END,
  NO_STREAM,
  START,
  STREAM_EXISTS,
  StreamNotFoundError,
  WrongExpectedVersionError,
  type RecordedEvent,
} from '@kurrent/kurrentdb-client';
import { describe, expect, it } from 'vitest';
import { ConcurrencyError, type NewStreamEvent } from '@agentlog/core';
import {
  agentlogEventIdNamespace,
  fromKurrentCurrentState,
  fromKurrentEvent,
  fromKurrentRevision,
  fromKurrentStreamState,
  isStreamNotFoundError,
  isWrongExpectedVersionError,
  kurrentEventId,
  streamNameOfLink,
  toConcurrencyError,
  toKurrentEvent,
  toKurrentReadRevision,
  toKurrentStreamState,
  toKurrentSubscriptionStart,
} from './kurrentMapping.js';

// No KurrentDB server here: these test the translations against the installed client's own
// constants and error classes, built the way the client builds them.

const uuidV5 = /^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('KurrentDB mapping: expected revisions and stream states', () => {
  it('maps our expected revisions to the client stream states', () => {
    expect(toKurrentStreamState('noStream')).toBe(NO_STREAM);
    expect(toKurrentStreamState('streamExists')).toBe(STREAM_EXISTS);
    expect(toKurrentStreamState('any')).toBe(ANY);
    expect(toKurrentStreamState(0)).toBe(0n);
    expect(toKurrentStreamState(41)).toBe(41n);
    expect(toKurrentStreamState(Number.MAX_SAFE_INTEGER)).toBe(9_007_199_254_740_991n);
    expect([NO_STREAM, STREAM_EXISTS, ANY]).toEqual(['no_stream', 'stream_exists', 'any']);
  });

  it('maps the client stream states back, both ways round', () => {
    for (const expected of ['noStream', 'streamExists', 'any', 0, 7, 123_456] as const) {
      expect(fromKurrentStreamState(toKurrentStreamState(expected))).toBe(expected);
    }
  });

  it('maps revisions (bigint) to numbers and refuses what a number cannot hold', () => {
    expect(fromKurrentRevision(0n)).toBe(0);
    expect(fromKurrentRevision(9_999n)).toBe(9_999);
    expect(fromKurrentRevision(9_007_199_254_740_991n)).toBe(Number.MAX_SAFE_INTEGER);
    expect(() => fromKurrentRevision(9_007_199_254_740_992n)).toThrow(RangeError);
    expect(() => fromKurrentRevision(-1n)).toThrow(RangeError);
    expect(fromKurrentCurrentState(NO_STREAM)).toBe('noStream');
    expect(fromKurrentCurrentState(5n)).toBe(5);
  });

  it('maps read starts: inclusive revisions, START forwards and END backwards by default', () => {
    expect(toKurrentReadRevision(undefined, 'forwards')).toBe(START);
    expect(toKurrentReadRevision(undefined, 'backwards')).toBe(END);
    expect(toKurrentReadRevision(0, 'forwards')).toBe(0n);
    expect(toKurrentReadRevision(6, 'backwards')).toBe(6n);
  });

  it('maps subscription starts to the exclusive revision KurrentDB subscriptions take', () => {
    expect(toKurrentSubscriptionStart(undefined)).toBe(START);
    expect(toKurrentSubscriptionStart(0)).toBe(START);
    expect(toKurrentSubscriptionStart(1)).toBe(0n);
    expect(toKurrentSubscriptionStart(10)).toBe(9n);
  });
});

describe('KurrentDB mapping: errors', () => {
  it('turns a WrongExpectedVersionError (as the append path builds it) into a ConcurrencyError', () => {
    const error = new WrongExpectedVersionError(undefined, {
      streamName: 'run-1',
      expected: 1n,
      current: 3n,
    });
    // The field names of the installed client version.
    expect(error).toMatchObject({
      type: 'wrong-expected-version',
      streamName: 'run-1',
      expectedState: 1n,
      actualState: 3n,
    });
    expect(isWrongExpectedVersionError(error)).toBe(true);
    const mapped = toConcurrencyError(error);
    expect(mapped).toBeInstanceOf(ConcurrencyError);
    expect(mapped).toMatchObject({
      name: 'ConcurrencyError',
      code: 'concurrency',
      streamId: 'run-1',
      expected: 1,
      actual: 3,
    });
  });

  it("maps a missing stream to actual 'noStream' and keeps the caller's expectation", () => {
    const error = new WrongExpectedVersionError(undefined, {
      streamName: 'run-2',
      expected: STREAM_EXISTS,
      current: NO_STREAM,
    });
    expect(toConcurrencyError(error)).toMatchObject({
      streamId: 'run-2',
      expected: 'streamExists',
      actual: 'noStream',
    });
    // The adapter sends KurrentDB the exact revision it saw; the error names what the caller expected.
    expect(toConcurrencyError(error, 'run-2', 'any')).toMatchObject({
      expected: 'any',
      actual: 'noStream',
    });
  });

  it('maps the errors of the v2 append protocol (revision conflicts) too', () => {
    const noStream = WrongExpectedVersionError.fromRevisionConflict({
      stream: 'run-3',
      expectedRevision: '-1',
      actualRevision: '4',
    });
    expect(toConcurrencyError(noStream)).toMatchObject({
      streamId: 'run-3',
      expected: 'noStream',
      actual: 4,
    });
    const numbered = WrongExpectedVersionError.fromRevisionConflict({
      stream: 'run-3',
      expectedRevision: '2',
      actualRevision: '-1',
    });
    expect(toConcurrencyError(numbered)).toMatchObject({ expected: 2, actual: 'noStream' });
  });

  it('recognises the client errors by their type, not by anything else', () => {
    const notFound = new StreamNotFoundError(undefined, 'missing');
    expect(notFound).toMatchObject({ type: 'stream-not-found', streamName: 'missing' });
    expect(isStreamNotFoundError(notFound)).toBe(true);
    expect(isWrongExpectedVersionError(notFound)).toBe(false);
    expect(isStreamNotFoundError(new Error('stream-not-found'))).toBe(false);
    expect(isWrongExpectedVersionError(new ConcurrencyError('s', 1, 2))).toBe(false);
    expect(isWrongExpectedVersionError(null)).toBe(false);
    expect(isStreamNotFoundError(undefined)).toBe(false);
    // Duck-typed: a copy of the class from another installation of the client works as well.
    expect(
      isWrongExpectedVersionError({
        type: 'wrong-expected-version',
        streamName: 's',
        expectedState: ANY,
        actualState: 0n,
      }),
    ).toBe(true);
  });
});

describe('KurrentDB mapping: event ids', () => {
  it('keeps a lower-case UUID as it is', () => {
    const id = randomUUID();
    expect(kurrentEventId(id)).toBe(id);
  });

  it('derives a valid, deterministic name-based UUID (v5) from any other id', () => {
    for (const id of ['event-1', 'ünïcødé 🚀', 'x'.repeat(1_000), randomUUID().toUpperCase()]) {
      const derived = kurrentEventId(id);
      expect(derived).toMatch(uuidV5);
      expect(kurrentEventId(id)).toBe(derived);
    }
    expect(kurrentEventId('event-1')).not.toBe(kurrentEventId('event-2'));
  });

  it('follows RFC 9562 version 5 exactly (checked against Python uuid.uuid5)', () => {
    const dns = '6ba7b810-9dad-11d1-80b4-00c04fd430c8';
    expect(kurrentEventId('www.example.com', dns)).toBe('2ed6657d-e927-568b-95e1-2665a8aea6a2');
    expect(agentlogEventIdNamespace).toBe('1b671a64-40d5-491e-99b0-da01ff1e3341');
    expect(kurrentEventId('event-1')).toBe('2472c174-2af7-5d84-ad88-3710a29bc52e');
    expect(kurrentEventId('ünïcødé 🚀')).toBe('8c93509c-1016-57d9-8486-a133b25926be');
  });
});

describe('KurrentDB mapping: events', () => {
  const newEvent: NewStreamEvent = {
    type: 'Ordered',
    data: { zebra: 1, apple: [1, { b: 2, a: 1 }], '10': 'ten', '2': 'two' },
    metadata: { eventId: 'event-7', at: '2025-01-02T03:04:05.678Z', schemaVersion: 1 },
  };

  /** What the client hands back for an appended JSON event: data and metadata through JSON text. */
  function recordedFrom(
    data: { data: unknown; metadata: unknown; type: string; id: string },
    revision: bigint,
  ): RecordedEvent {
    return {
      streamId: 'run-1',
      id: data.id,
      isJson: true,
      revision,
      type: data.type,
      created: new Date('2025-02-03T04:05:06.789Z'),
      data: JSON.parse(JSON.stringify(data.data)) as never,
      metadata: JSON.parse(JSON.stringify(data.metadata)) as never,
    };
  }

  it('writes a JSON event with the derived id and our metadata as KurrentDB metadata', () => {
    const written = toKurrentEvent(newEvent);
    expect(written).toMatchObject({
      id: kurrentEventId('event-7'),
      contentType: 'application/json',
      type: 'Ordered',
      data: newEvent.data,
      metadata: newEvent.metadata,
    });
  });

  it('reads it back byte for byte, with our event id and the revision', () => {
    const read = fromKurrentEvent(recordedFrom(toKurrentEvent(newEvent), 3n));
    expect(JSON.stringify(read)).toBe(
      JSON.stringify({ ...newEvent, metadata: { ...newEvent.metadata, revision: 3 } }),
    );
  });

  it('round-trips data that is not an object: a string, a number, null, an array', () => {
    for (const data of ['text', '123', 42, null, true, [1, 'two']]) {
      const event = { ...newEvent, data };
      expect(fromKurrentEvent(recordedFrom(toKurrentEvent(event), 0n)).data).toEqual(data);
    }
  });

  it('gives an event written by another client its KurrentDB id and time', () => {
    const foreign = {
      streamId: 'run-1',
      id: 'c0ffee00-0000-4000-8000-000000000000',
      isJson: false,
      revision: 0n,
      type: 'Foreign',
      created: new Date('2025-02-03T04:05:06.789Z'),
      data: new TextEncoder().encode('{"a":1}'),
      metadata: undefined,
    } as RecordedEvent;
    expect(fromKurrentEvent(foreign)).toEqual({
      type: 'Foreign',
      data: { a: 1 },
      metadata: {
        eventId: 'c0ffee00-0000-4000-8000-000000000000',
        at: '2025-02-03T04:05:06.789Z',
        schemaVersion: 1,
        revision: 0,
      },
    });
  });

  it('reads the stream name of a $streams link', () => {
    expect(streamNameOfLink(new TextEncoder().encode('0@run-1'))).toBe('run-1');
    expect(streamNameOfLink('0@a@b')).toBe('a@b');
    expect(streamNameOfLink(new TextEncoder().encode('0@ünïcødé-🚀'))).toBe('ünïcødé-🚀');
    expect(streamNameOfLink('no link')).toBeUndefined();
    expect(streamNameOfLink('0@')).toBeUndefined();
    expect(streamNameOfLink({ a: 1 })).toBeUndefined();
  });
});
