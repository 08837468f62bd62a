import { describe, expect, it } from 'vitest';
import { isAgentlogError, type NewStreamEvent } from '@agentlog/core';
import { newEvent, numbered, rejection, uniqueStreamId } from './conformanceHelpers.js';
import { found, uniqueAgent, type WorkIndexUnderTest } from './workIndexHelpers.js';

/** A `RunStarted` event, as a run's first append writes it. */
function runStarted(): NewStreamEvent {
  return newEvent('RunStarted', { mode: 'run' });
}

/** The `code` of an agentlog error, or what was thrown. */
function codeOf(error: unknown): unknown {
  return isAgentlogError(error) ? error.code : error;
}

/**
 * Registers the conformance tests of the store's fence (SPEC WRK-4, WRK-8): a claim is judged by
 * the store, atomically with its append and on its clock, and every later append of the run states
 * the claim's fencing token, which the store checks.
 */
export function describeFences(subject: WorkIndexUnderTest): void {
  /** Lets `ms` pass on the store's clock: sets it forward, or waits for real. */
  const pass = async (ms: number): Promise<void> => {
    const advance = subject.advanceClock();
    if (advance !== undefined) advance(ms);
    else await new Promise((resolve) => setTimeout(resolve, ms));
  };
  const running = (agent: string, owner: string, leaseMs: number) =>
    ({ status: 'running', agent, owner, leaseMs }) as const;

  /** A stream whose run `owner` claimed with this lease; resolves with its id. */
  const claimed = async (label: string, agent: string, owner: string, leaseMs: number) => {
    const streamId = uniqueStreamId(label);
    await subject.store().appendToStream(streamId, [runStarted()], {
      expectedRevision: 'noStream',
      work: running(agent, owner, leaseMs),
      claim: { owner, leaseMs },
    });
    return streamId;
  };

  describe('fences (WRK-4, WRK-8)', () => {
    it('WRK-8 a claim sets the fencing token to the revision of its first event', async () => {
      const agent = uniqueAgent('fence');
      const streamId = uniqueStreamId('fence');
      await subject.store().appendToStream(streamId, numbered(2), {
        expectedRevision: 'noStream',
        work: { status: 'requested', agent },
      });
      await subject.store().appendToStream(streamId, [runStarted()], {
        expectedRevision: 1,
        work: running(agent, 'w1', 60_000),
        claim: { owner: 'w1', leaseMs: 60_000 },
      });
      const entry = (await subject.work().workOf([streamId])).get(streamId);
      expect(entry).toMatchObject({ status: 'running', owner: 'w1', fence: 2 });
      // Appends of the run state the token and renew the lease; the token stays.
      await subject.store().appendToStream(streamId, numbered(1, 3), {
        expectedRevision: 2,
        work: running(agent, 'w1', 60_000),
        fence: 2,
      });
      expect((await subject.work().workOf([streamId])).get(streamId)?.fence).toBe(2);
    });

    it('WRK-4 a claim over a live lease of another owner is refused by the store: runOwned, nothing appended', async () => {
      const agent = uniqueAgent('owned');
      const streamId = await claimed('owned', agent, 'w1', 60_000);
      const error = await rejection(
        subject.store().appendToStream(streamId, [runStarted()], {
          expectedRevision: 0,
          work: running(agent, 'w2', 60_000),
          claim: { owner: 'w2', leaseMs: 60_000 },
        }),
      );
      expect(codeOf(error)).toBe('runOwned');
      expect(String((error as Error).message)).toContain(streamId);
      expect(String((error as Error).message)).toContain('w1');
      expect(await subject.store().readStream(streamId)).toHaveLength(1);
      expect((await subject.work().workOf([streamId])).get(streamId)).toMatchObject({
        owner: 'w1',
        fence: 0,
      });
    });

    it('WRK-4 a forged RunStarted without a claim over a live run is refused: runOwned, nothing appended', async () => {
      const agent = uniqueAgent('forged');
      const streamId = await claimed('forged', agent, 'w1', 60_000);
      const error = await rejection(
        subject.store().appendToStream(streamId, [runStarted()], { expectedRevision: 0 }),
      );
      expect(codeOf(error)).toBe('runOwned');
      expect(await subject.store().readStream(streamId)).toHaveLength(1);
    });

    it('WRK-4 a claim after the lease lapsed by the store clock takes the run and moves the token on', async () => {
      const agent = uniqueAgent('lapsed');
      const streamId = await claimed('lapsed', agent, 'w1', 300);
      await pass(400);
      expect(await found(subject, [agent])).toEqual([streamId]);
      await subject.store().appendToStream(streamId, [runStarted()], {
        expectedRevision: 0,
        work: running(agent, 'w2', 60_000),
        claim: { owner: 'w2', leaseMs: 60_000 },
      });
      expect((await subject.work().workOf([streamId])).get(streamId)).toMatchObject({
        owner: 'w2',
        fence: 1,
      });
    });

    it('WRK-8 an append with a stale token is refused with leaseLost, even at the right revision', async () => {
      const agent = uniqueAgent('stale');
      const streamId = await claimed('stale', agent, 'w1', 300);
      await pass(400);
      await subject.store().appendToStream(streamId, [runStarted()], {
        expectedRevision: 0,
        work: running(agent, 'w2', 60_000),
        claim: { owner: 'w2', leaseMs: 60_000 },
      });
      // w1 was paused past its lease: whatever revision it states, its token is the old one.
      for (const expectedRevision of [0, 1]) {
        const error = await rejection(
          subject.store().appendToStream(streamId, numbered(1, 9), {
            expectedRevision,
            work: running(agent, 'w1', 60_000),
            fence: 0,
          }),
        );
        expect(codeOf(error)).toBe('leaseLost');
      }
      expect(await subject.store().readStream(streamId)).toHaveLength(2);
      expect(await subject.work().renewLease(streamId, 'w1', 60_000, 0)).toBe(false);
      expect(await subject.work().renewLease(streamId, 'w2', 60_000, 0)).toBe(false);
      expect(await subject.work().renewLease(streamId, 'w2', 60_000, 1)).toBe(true);
    });

    it('WRK-8 a fenced append on a stream never claimed is refused with leaseLost', async () => {
      const streamId = uniqueStreamId('unclaimed');
      const error = await rejection(
        subject.store().appendToStream(streamId, numbered(1), {
          expectedRevision: 'noStream',
          fence: 0,
        }),
      );
      expect(codeOf(error)).toBe('leaseLost');
      expect(await subject.store().readStream(streamId)).toEqual([]);
    });

    it('WRK-4 the holder claims again after its own run was cut off; appends without a token leave the fence as it is', async () => {
      const agent = uniqueAgent('own');
      const streamId = await claimed('own', agent, 'w1', 60_000);
      // A decision from outside: no claim, no token.
      await subject.store().appendToStream(streamId, numbered(1, 1), { expectedRevision: 0 });
      await subject.store().appendToStream(streamId, [runStarted()], {
        expectedRevision: 1,
        work: running(agent, 'w1', 60_000),
        claim: { owner: 'w1', leaseMs: 60_000 },
      });
      expect((await subject.work().workOf([streamId])).get(streamId)?.fence).toBe(2);
    });

    it('WRK-8 malformed claims and tokens are refused naming the option, nothing appended', async () => {
      const streamId = uniqueStreamId('malformed');
      const bad = [
        { fence: -1 },
        { fence: 1.5 },
        { claim: { owner: '', leaseMs: 1000 } },
        { claim: { owner: 'w1', leaseMs: 0 } },
        { claim: { owner: 'w1', leaseMs: 1000 }, fence: 3 },
      ];
      for (const options of bad) {
        const error = await rejection(
          subject.store().appendToStream(streamId, numbered(1), {
            expectedRevision: 'noStream',
            ...options,
          }),
        );
        expect(String((error as Error).message)).toMatch(/claim|fence/);
      }
      expect(await subject.store().readStream(streamId)).toEqual([]);
    });

    it('WRK-9 unservedWork lists the streams that need work under agent names none of the given', async () => {
      const served = uniqueAgent('served');
      const orphan = uniqueAgent('orphan');
      const mine = uniqueStreamId('served');
      const theirs = uniqueStreamId('orphan');
      await subject.store().appendToStream(mine, numbered(1), {
        expectedRevision: 'noStream',
        work: { status: 'requested', agent: served },
      });
      await subject.store().appendToStream(theirs, numbered(1), {
        expectedRevision: 'noStream',
        work: { status: 'ready', agent: orphan },
      });
      const unserved = await subject.work().unservedWork({ limit: 1000, agents: [served] });
      const ids = unserved.map((item) => item.streamId);
      expect(ids).toContain(theirs);
      expect(ids).not.toContain(mine);
      expect(unserved.find((item) => item.streamId === theirs)).toMatchObject({
        reason: 'ready',
        agent: orphan,
      });
    });

    it('WRK-9 heartbeat keeps the agent names a worker runs', async () => {
      const id = uniqueAgent('names');
      await subject.work().heartbeat({ id, host: 'h', pid: 1, runs: [], agents: ['a', 'b'] });
      const mine = (await subject.work().listWorkers({ withinMs: 60_000 })).find(
        (worker) => worker.id === id,
      );
      expect(mine?.agents).toEqual(['a', 'b']);
      await subject.work().retire(id);
    });
  });
}
