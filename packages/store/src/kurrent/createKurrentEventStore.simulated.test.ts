import { EventEmitter } from 'node:events';
import {
  ANY,
  BACKWARDS,
  END,
  NO_STREAM,
  START,
  STREAM_EXISTS,
  StreamNotFoundError,
  WrongExpectedVersionError,
  type AppendStreamState,
  type CurrentStreamState,
  type EventData,
  type KurrentDBClient,
  type ReadRevision,
  type ResolvedEvent,
} from '@kurrent/kurrentdb-client';
import { firstValueFrom, take, timeout, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { NewStreamEvent } from '@agentlog/core';
import { describeEventStoreConformance } from '../conformance/eventStoreConformance.js';
import { createKurrentEventStore } from './createKurrentEventStore.js';
import { kurrentEventId } from './kurrentMapping.js';

// No KurrentDB server can run here. This runs the adapter's own logic (idempotence by eventId,
// expected revisions, catch-up subscriptions, listStreams) against a small in-process simulation of
// the client, written from the client's documented behaviour: it proves the adapter, not KurrentDB.
// createKurrentEventStore.test.ts runs the same suite against a real server when KURRENTDB_URL is set.

interface StoredRecord {
  readonly id: string;
  readonly type: string;
  readonly data: string;
  readonly metadata: string;
  readonly created: Date;
}

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function tick(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** The part of `KurrentDBClient` the store uses, simulated in memory. */
class SimulatedKurrentDB {
  readonly streams = new Map<string, StoredRecord[]>();
  /** Stream names in creation order, as the `$streams` projection shows them once it caught up. */
  readonly projected: string[] = [];
  projectionStatus = 'Running';
  projectionPaused = false;
  liveSubscriptions = 0;
  disposed = false;
  private readonly appended = new EventEmitter().setMaxListeners(0);

  async appendToStream(
    streamName: string,
    events: EventData[],
    { streamState = ANY }: { streamState?: AppendStreamState } = {},
  ): Promise<{ success: boolean; nextExpectedRevision: bigint }> {
    await tick();
    const stream = this.streams.get(streamName);
    const current: CurrentStreamState =
      stream === undefined ? NO_STREAM : BigInt(stream.length - 1);
    const satisfied =
      streamState === ANY ||
      (streamState === NO_STREAM && stream === undefined) ||
      (streamState === STREAM_EXISTS && stream !== undefined) ||
      streamState === current;
    if (!satisfied) {
      throw new WrongExpectedVersionError(undefined, {
        streamName,
        expected: streamState,
        current,
      });
    }
    for (const event of events) {
      if (!uuid.test(event.id)) throw new Error(`KurrentDB takes UUID event ids, not ${event.id}`);
    }
    const target = stream ?? [];
    if (stream === undefined) {
      this.streams.set(streamName, target);
      if (!this.projectionPaused) this.projected.push(streamName);
    }
    for (const event of events) {
      target.push({
        id: event.id,
        type: event.type,
        data: JSON.stringify(event.data),
        metadata: JSON.stringify(event.metadata),
        created: new Date(),
      });
    }
    this.appended.emit(streamName);
    return { success: true, nextExpectedRevision: BigInt(target.length - 1) };
  }

  catchUpProjection(): void {
    for (const name of this.streams.keys()) {
      if (!this.projected.includes(name)) this.projected.push(name);
    }
  }

  readStream(
    streamName: string,
    {
      direction = 'forwards',
      fromRevision = direction === BACKWARDS ? END : START,
      maxCount = Number.MAX_SAFE_INTEGER,
    }: { direction?: string; fromRevision?: ReadRevision; maxCount?: number | bigint } = {},
  ): AsyncIterableIterator<ResolvedEvent> {
    const resolve = (name: string, record: StoredRecord, revision: number): ResolvedEvent =>
      ({
        event: {
          streamId: name,
          id: record.id,
          isJson: name !== '$streams',
          revision: BigInt(revision),
          type: record.type,
          created: record.created,
          data:
            name === '$streams'
              ? new TextEncoder().encode(record.data)
              : (JSON.parse(record.data) as never),
          metadata: JSON.parse(record.metadata) as never,
        },
      }) as ResolvedEvent;
    const records =
      streamName === '$streams'
        ? this.projected.length === 0
          ? undefined
          : this.projected.map((name) => ({
              id: kurrentEventId(name),
              type: '$>',
              data: `0@${name}`,
              metadata: '{}',
              created: new Date(),
            }))
        : this.streams.get(streamName)?.slice();
    return (async function* () {
      await tick();
      if (records === undefined) throw new StreamNotFoundError(undefined, streamName);
      const count = Number(maxCount);
      if (direction === BACKWARDS) {
        const last = records.length - 1;
        let revision = fromRevision === END ? last : Math.min(Number(fromRevision), last);
        for (let n = 0; revision >= 0 && n < count; revision -= 1, n += 1) {
          const record = records[revision];
          if (record !== undefined) yield resolve(streamName, record, revision);
        }
        return;
      }
      const start = fromRevision === START ? 0 : Number(fromRevision);
      for (const [index, record] of records.slice(start, start + count).entries()) {
        yield resolve(streamName, record, start + index);
      }
    })();
  }

  /** A catch-up subscription: starts after `fromRevision` (exclusive), then follows appends. */
  subscribeToStream(
    streamName: string,
    { fromRevision = START }: { fromRevision?: ReadRevision } = {},
  ): EventEmitter & { unsubscribe(): Promise<void> } {
    let next = fromRevision === START ? 0 : fromRevision === END ? -1 : Number(fromRevision) + 1;
    let stopped = false;
    const emitter = new EventEmitter();
    const deliver = (): void => {
      const stream = this.streams.get(streamName) ?? [];
      if (next < 0) next = stream.length;
      while (!stopped && next < stream.length) {
        const record = stream[next];
        if (record === undefined) break;
        const resolved = {
          event: {
            streamId: streamName,
            id: record.id,
            isJson: true,
            revision: BigInt(next),
            type: record.type,
            created: record.created,
            data: JSON.parse(record.data) as unknown,
            metadata: JSON.parse(record.metadata) as unknown,
          },
        };
        next += 1;
        emitter.emit('data', resolved);
      }
    };
    const onAppend = (): void => {
      setImmediate(deliver);
    };
    this.appended.on(streamName, onAppend);
    this.liveSubscriptions += 1;
    setImmediate(deliver);
    return Object.assign(emitter, {
      unsubscribe: () => {
        if (!stopped) {
          stopped = true;
          this.liveSubscriptions -= 1;
          this.appended.off(streamName, onAppend);
        }
        return Promise.resolve();
      },
    });
  }

  getProjectionStatus(): Promise<{ projectionStatus: string }> {
    return Promise.resolve({ projectionStatus: this.projectionStatus });
  }

  dispose(): Promise<void> {
    this.disposed = true;
    return Promise.resolve();
  }

  asClient(): KurrentDBClient {
    return this as unknown as KurrentDBClient;
  }
}

describeEventStoreConformance('KurrentDB event store on a simulated client (adapter logic)', () => {
  const store = createKurrentEventStore({ client: new SimulatedKurrentDB().asClient() });
  return Promise.resolve({ store, close: () => store.close() });
});

function event(eventId: string, data: unknown = { eventId }): NewStreamEvent {
  return {
    type: 'Labelled',
    data,
    metadata: { eventId, at: '2025-01-02T03:04:05.678Z', schemaVersion: 1 },
  };
}

describe('KurrentDB event store on a simulated client: specifics', () => {
  it('writes non-UUID event ids as derived UUIDs and reads our ids back', async () => {
    const db = new SimulatedKurrentDB();
    const store = createKurrentEventStore({ client: db.asClient() });
    await store.appendToStream('run-1', [event('event-1'), event('event-2')], {
      expectedRevision: 'noStream',
    });
    expect(db.streams.get('run-1')?.map((record) => record.id)).toEqual([
      kurrentEventId('event-1'),
      kurrentEventId('event-2'),
    ]);
    expect((await store.readStream('run-1')).map((e) => e.metadata.eventId)).toEqual([
      'event-1',
      'event-2',
    ]);
  });

  it('RES-3: treats a retry from another store (another process) as idempotent, and a stale expectation as a conflict', async () => {
    const db = new SimulatedKurrentDB();
    const one = createKurrentEventStore({ client: db.asClient() });
    const two = createKurrentEventStore({ client: db.asClient() });
    const batch = [event('a'), event('b')];
    await one.appendToStream('run-1', batch, { expectedRevision: 'noStream' });
    expect(await two.appendToStream('run-1', batch, { expectedRevision: 'noStream' })).toEqual({
      nextExpectedRevision: 1,
    });
    await two.appendToStream('run-1', [event('c')], { expectedRevision: 1 });
    await expect(
      one.appendToStream('run-1', [event('d')], { expectedRevision: 1 }),
    ).rejects.toMatchObject({ code: 'concurrency', expected: 1, actual: 2 });
    expect((await one.readStream('run-1')).map((e) => e.metadata.eventId)).toEqual(['a', 'b', 'c']);
  });

  it('lists streams it created before the $streams projection shows them, after the others', async () => {
    const db = new SimulatedKurrentDB();
    const store = createKurrentEventStore({ client: db.asClient() });
    await store.appendToStream('first', [event('1')], { expectedRevision: 'noStream' });
    db.projectionPaused = true;
    await store.appendToStream('second', [event('2')], { expectedRevision: 'noStream' });
    expect(await store.listStreams()).toEqual(['first', 'second']);
    db.catchUpProjection();
    expect(await store.listStreams()).toEqual(['first', 'second']);
  });

  it('refuses to list streams when the $streams projection is not running', async () => {
    const db = new SimulatedKurrentDB();
    db.projectionStatus = 'Stopped';
    const store = createKurrentEventStore({ client: db.asClient() });
    await expect(store.listStreams()).rejects.toMatchObject({
      code: 'unsupported',
      message: expect.stringContaining('--run-projections=System') as unknown,
    });
  });

  it('ends the KurrentDB subscription on unsubscribe, and leaves a client it did not create open', async () => {
    const db = new SimulatedKurrentDB();
    const store = createKurrentEventStore({ client: db.asClient() });
    await store.appendToStream('run-1', [event('a'), event('b'), event('c')], {
      expectedRevision: 'noStream',
    });
    const fromOne = await firstValueFrom(
      store
        .subscribeToStream('run-1', { fromRevision: 1 })
        .pipe(take(2), toArray(), timeout(1_000)),
    );
    expect(fromOne.map((e) => e.metadata.revision)).toEqual([1, 2]);
    expect(db.liveSubscriptions).toBe(0);
    const errors: unknown[] = [];
    store.subscribeToStream('run-1').subscribe({ error: (error: unknown) => errors.push(error) });
    expect(db.liveSubscriptions).toBe(1);
    await store.close();
    expect(errors).toEqual([expect.objectContaining({ code: 'closed' })]);
    expect(db.liveSubscriptions).toBe(0);
    expect(db.disposed).toBe(false);
  });
});
