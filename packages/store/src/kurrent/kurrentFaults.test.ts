import { EventEmitter } from 'node:events';
import {
  UnavailableError,
  type KurrentDBClient,
  type ResolvedEvent,
} from '@kurrent/kurrentdb-client';
import { firstValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { NewStreamEvent } from '@agentlog/core';
import { createKurrentEventStore } from './createKurrentEventStore.js';
import { rejection } from '../test/rejection.js';

// No KurrentDB server runs here: a client whose every call fails as the real one does when the
// server cannot be reached (gRPC status 14, UNAVAILABLE) shows what the adapter makes of it.

const unavailable = (): UnavailableError =>
  new UnavailableError({ code: 14, message: '14 UNAVAILABLE: No connection established' } as never);

/** A client that cannot reach its server; `subscription` is the last subscription it handed out. */
class UnreachableKurrentDB {
  subscription: EventEmitter | undefined;

  appendToStream(): Promise<never> {
    return Promise.reject(unavailable());
  }

  readStream(): AsyncIterableIterator<ResolvedEvent> {
    return (async function* () {
      await Promise.resolve();
      yield* [];
      throw unavailable();
    })();
  }

  subscribeToStream(): EventEmitter & { unsubscribe(): Promise<void> } {
    const emitter = new EventEmitter();
    this.subscription = emitter;
    return Object.assign(emitter, { unsubscribe: () => Promise.resolve() });
  }

  getProjectionStatus(): Promise<never> {
    return Promise.reject(unavailable());
  }

  dispose(): Promise<void> {
    return Promise.resolve();
  }

  asClient(): KurrentDBClient {
    return this as unknown as KurrentDBClient;
  }
}

const event: NewStreamEvent = {
  type: 'Labelled',
  data: { label: 'a' },
  metadata: { eventId: 'a', at: '2025-01-02T03:04:05.678Z', schemaVersion: 1 },
};

describe('KurrentDB store faults reach the caller as storeUnavailable (RES-5)', () => {
  it('RES-5 KurrentDB: an unreachable server makes append, read and listStreams fail with storeUnavailable naming the store and the stream, the client error as cause', async () => {
    const store = createKurrentEventStore({ client: new UnreachableKurrentDB().asClient() });
    const failures = [
      await rejection(store.appendToStream('run-1', [event], { expectedRevision: 'any' })),
      await rejection(store.readStream('run-1')),
      await rejection(store.listStreams()),
    ];
    expect(failures.map((failure) => failure.message)).toEqual([
      'KurrentDB store, stream run-1: the append failed: 14 UNAVAILABLE: No connection established',
      'KurrentDB store, stream run-1: the read failed: 14 UNAVAILABLE: No connection established',
      'KurrentDB store: listing the streams failed: 14 UNAVAILABLE: No connection established',
    ]);
    for (const failure of failures) {
      expect(failure).toMatchObject({ name: 'AgentError', code: 'storeUnavailable' });
      expect(failure.cause).toBeInstanceOf(UnavailableError);
    }
  });

  it('RES-5 KurrentDB: a subscription whose connection fails ends with storeUnavailable, and an event it cannot take ends it instead of crashing the process', async () => {
    const db = new UnreachableKurrentDB();
    const store = createKurrentEventStore({ client: db.asClient() });
    const lost = rejection(firstValueFrom(store.subscribeToStream('run-1').pipe(toArray())));
    db.subscription?.emit('error', unavailable());
    const error = await lost;
    expect(error).toMatchObject({ code: 'storeUnavailable' });
    expect(error.message).toBe(
      'KurrentDB store, stream run-1: the subscription failed: 14 UNAVAILABLE: No connection established',
    );
    expect(error.cause).toBeInstanceOf(UnavailableError);

    const bad = rejection(firstValueFrom(store.subscribeToStream('run-2').pipe(toArray())));
    // A revision beyond 2^53 - 1: the mapping throws, inside the client's event handler.
    db.subscription?.emit('data', {
      event: {
        streamId: 'run-2',
        id: 'x',
        isJson: true,
        revision: 2n ** 60n,
        type: 'Labelled',
        created: new Date(),
        data: {},
        metadata: { eventId: 'x', at: 'now', schemaVersion: 1 },
      },
    });
    expect(await bad).toMatchObject({
      code: 'invalidEvent',
      message: expect.stringContaining(
        'stream run-2 of KurrentDB store: KurrentDB revision 1152921504606846976 is not a revision agentlog can hold',
      ) as unknown,
    });
  });

  it('RES-5 KurrentDB: a fault names the host of the connection string, never its credentials', async () => {
    const store = createKurrentEventStore({
      connectionString: 'kurrentdb://admin:changeit@127.0.0.1:1?tls=false&deadline=200',
    });
    try {
      const error = await rejection(store.readStream('run-1'));
      expect(error).toMatchObject({ code: 'storeUnavailable' });
      expect(error.message).toMatch(
        /^KurrentDB store 127\.0\.0\.1:1, stream run-1: the read failed: /,
      );
      expect(error.message).not.toContain('changeit');
    } finally {
      await store.close();
    }
  }, 20_000);
});
