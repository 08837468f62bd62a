import { describe, expect, it } from 'vitest';
import { eventuallyTrue } from './eventuallyTrue.js';
import { numbered, uniqueStreamId } from './conformanceHelpers.js';
import { found, streamWith, uniqueAgent, type WorkIndexUnderTest } from './workIndexHelpers.js';

/** How long a test waits for something that must happen soon (generous: machines are slow). */
const soonMs = 10_000;

/**
 * Registers the conformance tests of leases (judged on the store's clock, renewed by their owner
 * only: SPEC WRK-4), of heartbeats and of `waitForWork`.
 */
export function describeLeasesAndWorkers(subject: WorkIndexUnderTest): void {
  /** Lets `ms` pass on the store's clock: sets it forward, or waits for real. */
  const pass = async (ms: number): Promise<void> => {
    const advance = subject.advanceClock();
    if (advance !== undefined) advance(ms);
    else await new Promise((resolve) => setTimeout(resolve, ms));
  };

  describe('leases (WRK-4)', () => {
    it('WRK-4: a running stream is listed as leaseLapsed once its lease ends by the store clock', async () => {
      const agent = uniqueAgent('lapse');
      const streamId = await streamWith(subject, 'lapse', {
        status: 'running',
        agent,
        owner: 'worker-gone',
        leaseMs: 300,
      });
      await pass(400);
      await eventuallyTrue(async () => (await found(subject, [agent])).length === 1, soonMs);
      const [item] = await subject.work().findWork({ limit: 10, agents: [agent] });
      expect(item).toMatchObject({ streamId, reason: 'leaseLapsed', agent, owner: 'worker-gone' });
      // A lapsed run holds no place under a cap (WRK-10).
      await subject.work().setCaps({ [agent]: 1 });
      expect(await found(subject, [agent])).toEqual([streamId]);
    });

    it('WRK-4: renewLease extends the lease of its owner only, from the store now', async () => {
      const agent = uniqueAgent('renew');
      const streamId = await streamWith(subject, 'renew', {
        status: 'running',
        agent,
        owner: 'w1',
        leaseMs: 300,
      });
      expect(await subject.work().renewLease(streamId, 'w2', 600_000)).toBe(false);
      expect(await subject.work().renewLease(streamId, 'w1', 600_000)).toBe(true);
      await pass(400);
      expect(await found(subject, [agent])).toEqual([]);
      const lease = (await subject.work().workOf([streamId])).get(streamId)?.leaseUntil;
      const now = (await subject.work().now()).getTime();
      expect(Date.parse(lease ?? '')).toBeGreaterThan(now + 500_000);
      // Once the stream is not running any more, there is no lease to renew.
      await subject.store().appendToStream(streamId, numbered(1, 1), {
        expectedRevision: 0,
        work: { status: 'idle', agent },
      });
      expect(await subject.work().renewLease(streamId, 'w1', 600_000)).toBe(false);
      expect(await subject.work().renewLease(uniqueStreamId('none'), 'w1', 600_000)).toBe(false);
    });

    it('WRK-4: now() is the store clock and does not run backwards', async () => {
      const first = await subject.work().now();
      const second = await subject.work().now();
      expect(first).toBeInstanceOf(Date);
      expect(second.getTime()).toBeGreaterThanOrEqual(first.getTime());
    });
  });

  describe('workers', () => {
    it('heartbeat records a worker with its runs; listWorkers shows the recent ones; retire forgets it', async () => {
      const id = uniqueAgent('worker');
      await subject.work().heartbeat({ id, host: 'host-a', pid: 4711, runs: ['s1'] });
      await subject.work().heartbeat({ id, host: 'host-a', pid: 4711, runs: ['s1', 's2'] });
      const mine = (await subject.work().listWorkers({ withinMs: 60_000 })).filter(
        (worker) => worker.id === id,
      );
      expect(mine).toEqual([
        {
          id,
          host: 'host-a',
          pid: 4711,
          startedAt: expect.any(String) as unknown,
          heartbeatAt: expect.any(String) as unknown,
          runs: ['s1', 's2'],
        },
      ]);
      expect(Date.parse(mine[0]?.heartbeatAt ?? '')).toBeGreaterThanOrEqual(
        Date.parse(mine[0]?.startedAt ?? ''),
      );
      await pass(400);
      const ids = async (withinMs?: number): Promise<string[]> =>
        (await subject.work().listWorkers(withinMs === undefined ? {} : { withinMs }))
          .map((worker) => worker.id)
          .filter((worker) => worker === id);
      expect(await ids(100)).toEqual([]);
      expect(await ids()).toEqual([id]);
      await subject.work().retire(id);
      expect(await ids()).toEqual([]);
    });
  });

  describe('waitForWork', () => {
    it('resolves after ms', async () => {
      await subject.work().waitForWork(50);
    });

    it('resolves at once when its signal aborts, or was aborted', async () => {
      const controller = new AbortController();
      const waiting = subject.work().waitForWork(600_000, controller.signal);
      setTimeout(() => controller.abort(), 20);
      await waiting;
      await subject.work().waitForWork(600_000, AbortSignal.abort());
    });

    it('resolves when an append makes a stream ready', async () => {
      // The first wait sets up whatever the store listens with.
      await subject.work().waitForWork(0);
      const waiting = subject.work().waitForWork(600_000);
      await streamWith(subject, 'wake', { status: 'ready', agent: uniqueAgent('wake') });
      await waiting;
    });
  });
}
