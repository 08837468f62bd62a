import { describe, expect, it } from 'vitest';
import type { WorkEntry } from '../ports/workIndex.js';
import { createInMemoryEventStore } from './inMemoryEventStore.js';

// The in-memory store's work index (SPEC WRK-2, WRK-4, WRK-6), written with the events.

function indexed() {
  let now = Date.parse('2026-01-01T00:00:00.000Z');
  const store = createInMemoryEventStore({ clock: () => new Date(now) });
  let ids = 0;
  const append = (streamId: string, work: WorkEntry) =>
    store.appendToStream(
      streamId,
      [
        {
          type: 'WarningRecorded',
          data: { code: 'x', message: 'x' },
          metadata: {
            eventId: `e${(ids += 1)}`,
            at: new Date(now).toISOString(),
            schemaVersion: 4,
          },
        },
      ],
      { expectedRevision: 'any', work },
    );
  const work = store.work;
  if (work === undefined) throw new Error('the in-memory store keeps a work index');
  return { work, append, advance: (ms: number) => void (now += ms) };
}

describe('the in-memory work index', () => {
  it('WRK-6 lists requested runs first in, first out, only of the given agents, and a lapsed lease by its own clock', async () => {
    const { work, append, advance } = indexed();
    await append('second', { status: 'idle' });
    await append('first', { status: 'requested', agent: 'a' });
    advance(10);
    await append('second', { status: 'requested', agent: 'a' });
    await append('other', { status: 'requested', agent: 'b' });
    await append('live', { status: 'running', agent: 'a', owner: 'w1', leaseMs: 1_000 });
    expect(
      (await work.findWork({ limit: 10, agents: ['a'] })).map((item) => item.streamId),
    ).toEqual(['first', 'second']);
    advance(1_000);
    const found = await work.findWork({ limit: 10, agents: ['a'] });
    expect(found.at(-1)).toMatchObject({ streamId: 'live', reason: 'leaseLapsed', owner: 'w1' });
    expect(await work.findWork({ limit: 1, agents: ['a'] })).toHaveLength(1);
  });

  it('WRK-4 renews only the owner’s lease, on the store’s clock', async () => {
    const { work, append, advance } = indexed();
    await append('live', { status: 'running', agent: 'a', owner: 'w1', leaseMs: 1_000 });
    advance(900);
    expect(await work.renewLease('live', 'w2', 1_000)).toBe(false);
    expect(await work.renewLease('live', 'w1', 1_000)).toBe(true);
    advance(900);
    expect(await work.findWork({ limit: 10, agents: ['a'] })).toEqual([]);
    expect((await work.workOf(['live'])).get('live')).toEqual({
      status: 'running',
      agent: 'a',
      owner: 'w1',
      leaseUntil: '2026-01-01T00:00:01.900Z',
    });
  });

  it('WRK-10 the caps it holds hold the running streams of an agent name to at most its number', async () => {
    const { work, append, advance } = indexed();
    await append('live', { status: 'running', agent: 'a', owner: 'w1', leaseMs: 60_000 });
    await append('one', { status: 'requested', agent: 'a' });
    await append('two', { status: 'requested', agent: 'a' });
    await append('b', { status: 'ready', agent: 'b' });
    expect(await work.setCaps({ a: 2, b: 0 })).toEqual({});
    const found = await work.findWork({ limit: 10, agents: ['a', 'b'] });
    expect(found.map((item) => item.streamId)).toEqual(['one']);
    // A lapsed lease holds no place: it is listed, and so is the next request.
    advance(60_000);
    const lapsed = await work.findWork({ limit: 10, agents: ['a'] });
    expect(lapsed.map((item) => item.streamId)).toEqual(['one', 'two']);
  });

  it('WRK-7 keeps the workers’ heartbeats and forgets a retired worker', async () => {
    const { work, advance } = indexed();
    await work.heartbeat({ id: 'w1', host: 'h', pid: 1, runs: ['live'] });
    advance(5_000);
    await work.heartbeat({ id: 'w2', host: 'h', pid: 2, runs: [] });
    expect((await work.listWorkers({ withinMs: 1_000 })).map((w) => w.id)).toEqual(['w2']);
    expect(await work.listWorkers()).toMatchObject([
      { id: 'w1', runs: ['live'], startedAt: '2026-01-01T00:00:00.000Z' },
      { id: 'w2', heartbeatAt: '2026-01-01T00:00:05.000Z' },
    ]);
    await work.retire('w1');
    expect((await work.listWorkers()).map((w) => w.id)).toEqual(['w2']);
  });
});
