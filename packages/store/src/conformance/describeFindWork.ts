import { describe, expect, it } from 'vitest';
import { expectConflict, numbered, rejection, uniqueStreamId } from './conformanceHelpers.js';
import {
  found,
  moveTo,
  streamWith,
  uniqueAgent,
  type WorkIndexUnderTest,
} from './workIndexHelpers.js';

/**
 * Registers the conformance tests of the index's entries and of `findWork`: written in the same
 * transaction as the events (SPEC WRK-6), first in first out, agent names and limits (caps:
 * `describeCaps`).
 */
export function describeFindWork(subject: WorkIndexUnderTest): void {
  describe('the work index entry (WRK-6)', () => {
    it('WRK-6: an append with work writes the stream entry with its events', async () => {
      const agent = uniqueAgent('entry');
      const streamId = await streamWith(subject, 'entry', { status: 'requested', agent });
      const entries = await subject.work().workOf([streamId, uniqueStreamId('absent')]);
      expect([...entries]).toEqual([[streamId, { status: 'requested', agent }]]);
      expect((await subject.work().workOf()).get(streamId)).toEqual({ status: 'requested', agent });
    });

    it('WRK-6: a failed append (ConcurrencyError) leaves the entry unchanged', async () => {
      const agent = uniqueAgent('failed');
      const streamId = await streamWith(subject, 'failed', { status: 'requested', agent });
      const before = await subject.work().workOf([streamId]);
      await expectConflict(
        subject.store().appendToStream(streamId, numbered(1, 1), {
          expectedRevision: 5,
          work: { status: 'running', agent, owner: 'w1', leaseMs: 60_000 },
        }),
        streamId,
        5,
        0,
      );
      expect(await subject.work().workOf([streamId])).toEqual(before);
      expect(await found(subject, [agent])).toEqual([streamId]);
    });

    it('WRK-6: an invalid work entry is refused before anything is written', async () => {
      const streamId = uniqueStreamId('invalid-work');
      const error = await rejection(
        subject.store().appendToStream(streamId, numbered(1), {
          expectedRevision: 'noStream',
          work: { status: 'finished' as 'idle' },
        }),
      );
      expect(error).toBeInstanceOf(RangeError);
      expect(String(error)).toContain(`stream ${streamId}: status must be one of`);
      expect(await subject.store().readStream(streamId)).toEqual([]);
      expect((await subject.work().workOf([streamId])).size).toBe(0);
    });

    it('WRK-6: an append without work, or one that stores no event, leaves the entry as it is', async () => {
      const agent = uniqueAgent('untouched');
      const streamId = uniqueStreamId('untouched');
      const first = numbered(1);
      await subject.store().appendToStream(streamId, first, {
        expectedRevision: 'noStream',
        work: { status: 'ready', agent },
      });
      await subject.store().appendToStream(streamId, numbered(1, 1), { expectedRevision: 0 });
      // A retry of stored events and an empty append store nothing, so they write no entry.
      await subject.store().appendToStream(streamId, first, {
        expectedRevision: 'any',
        work: { status: 'idle', agent },
      });
      await subject.store().appendToStream(streamId, [], {
        expectedRevision: 1,
        work: { status: 'idle', agent },
      });
      expect(await subject.work().workOf([streamId])).toEqual(
        new Map([[streamId, { status: 'ready', agent }]]),
      );
    });

    it('WRK-6: a stream that is running keeps its owner and lease until; idle clears them', async () => {
      const agent = uniqueAgent('running');
      const streamId = await streamWith(subject, 'running', {
        status: 'running',
        agent,
        owner: 'worker-1',
        leaseMs: 60_000,
      });
      const now = (await subject.work().now()).getTime();
      const running = (await subject.work().workOf([streamId])).get(streamId);
      expect(running).toMatchObject({ status: 'running', agent, owner: 'worker-1' });
      const until = Date.parse(running?.leaseUntil ?? '');
      // Counted from the append, by the store's clock: within a minute from now, and most of it left.
      expect(until).toBeGreaterThan(now + 30_000);
      expect(until).toBeLessThanOrEqual(now + 60_000);
      await moveTo(subject, streamId, 0, { status: 'idle' });
      expect((await subject.work().workOf([streamId])).get(streamId)).toEqual({
        status: 'idle',
        agent,
      });
    });
  });

  describe('findWork (WRK-6)', () => {
    it('WRK-6: lists requested and ready streams of the given agents, first in first out', async () => {
      const agent = uniqueAgent('fifo');
      const other = uniqueAgent('fifo-other');
      const a = await streamWith(subject, 'fifo-a', { status: 'requested', agent });
      const b = await streamWith(subject, 'fifo-b', { status: 'ready', agent });
      await streamWith(subject, 'fifo-other', { status: 'requested', agent: other });
      const c = await streamWith(subject, 'fifo-c', { status: 'requested', agent });
      await streamWith(subject, 'fifo-idle', { status: 'idle', agent });
      await streamWith(subject, 'fifo-live', {
        status: 'running',
        agent,
        owner: 'w',
        leaseMs: 600_000,
      });
      const items = await subject.work().findWork({ limit: 10, agents: [agent] });
      expect(items.map((item) => [item.streamId, item.reason, item.agent])).toEqual([
        [a, 'requested', agent],
        [b, 'ready', agent],
        [c, 'requested', agent],
      ]);
      expect(Date.parse(items[0]?.since ?? '')).toBeLessThan(Date.parse(items[2]?.since ?? ''));
      expect(await found(subject, [agent, other])).toHaveLength(4);
      expect(await subject.work().findWork({ limit: 2, agents: [agent] })).toHaveLength(2);
      expect(await subject.work().findWork({ limit: 0, agents: [agent] })).toEqual([]);
      expect(await subject.work().findWork({ limit: 10, agents: [] })).toEqual([]);
    });

    it('WRK-6: since changes only when the status does, so the order is when a stream became waiting', async () => {
      const agent = uniqueAgent('since');
      const a = await streamWith(subject, 'since-a', { status: 'requested', agent });
      const b = await streamWith(subject, 'since-b', { status: 'requested', agent });
      // The same status again keeps a's place in the queue.
      await moveTo(subject, a, 0, { status: 'requested', agent });
      expect(await found(subject, [agent])).toEqual([a, b]);
      // A run of a, then a stop that makes it ready: it joins the queue behind b.
      await moveTo(subject, a, 1, { status: 'running', agent, owner: 'w', leaseMs: 600_000 });
      expect(await found(subject, [agent])).toEqual([b]);
      await moveTo(subject, a, 2, { status: 'ready', agent });
      expect(await found(subject, [agent])).toEqual([b, a]);
    });

    it('refuses findWork options that are not whole numbers and names', async () => {
      const work = subject.work();
      const refused = (options: Parameters<typeof work.findWork>[0]) =>
        rejection(Promise.resolve().then(() => work.findWork(options)));
      expect(String(await refused({ limit: -1, agents: [] }))).toContain('limit');
      expect(String(await refused({ limit: 1, agents: 'a' as unknown as string[] }))).toContain(
        'agents',
      );
    });
  });
}
