import { describe, expect, it } from 'vitest';
import { isAgentlogError, type AppendOptions, type NewStreamEvent } from '@agentlog/core';
import { newEvent, numbered, rejection, uniqueStreamId } from './conformanceHelpers.js';
import { found, streamWith, uniqueAgent, type WorkIndexUnderTest } from './workIndexHelpers.js';

/** A `RunStarted` event, as a run's first append writes it. */
function runStarted(): NewStreamEvent {
  return newEvent('RunStarted', { mode: 'run' });
}

/**
 * Registers the conformance tests of the caps per agent name (SPEC WRK-10): the store keeps them,
 * `findWork` holds an agent at its cap back, and a claim of a run whose agent is at its cap is
 * refused in the claim's transaction, on the store's clock, with `AgentAtCapError`.
 */
export function describeCaps(subject: WorkIndexUnderTest): void {
  /** Lets `ms` pass on the store's clock: sets it forward, or waits for real. */
  const pass = async (ms: number): Promise<void> => {
    const advance = subject.advanceClock();
    if (advance !== undefined) advance(ms);
    else await new Promise((resolve) => setTimeout(resolve, ms));
  };
  const running = (agent: string | undefined, owner: string, leaseMs: number) =>
    ({ status: 'running', ...(agent === undefined ? {} : { agent }), owner, leaseMs }) as const;
  const claimOf = (agent: string | undefined, owner: string, leaseMs = 60_000) => ({
    work: running(agent, owner, leaseMs),
    claim: { owner, leaseMs },
  });
  /** Claims the run of a requested stream (one event) of `agent` for `owner`: `ok` or the code. */
  const claim = async (
    streamId: string,
    agent: string | undefined,
    owner: string,
    leaseMs = 60_000,
    expectedRevision: AppendOptions['expectedRevision'] = 0,
  ): Promise<unknown> => {
    try {
      await subject.store().appendToStream(streamId, [runStarted()], {
        expectedRevision,
        ...claimOf(agent, owner, leaseMs),
      });
      return 'ok';
    } catch (error) {
      return isAgentlogError(error) ? error.code : error;
    }
  };
  const requested = (label: string, agent: string) =>
    streamWith(subject, label, { status: 'requested', agent });

  describe('caps per agent name (WRK-10)', () => {
    it('WRK-10 the store keeps the caps: setCaps sets, replaces and removes them and says what they were; caps lists them', async () => {
      const [a, b, c] = [uniqueAgent('keep-a'), uniqueAgent('keep-b'), uniqueAgent('keep-c')];
      const work = subject.work();
      expect(await work.setCaps({ [a]: 2, [b]: 0 })).toEqual({});
      expect(await work.caps()).toMatchObject({ [a]: 2, [b]: 0 });
      expect(await work.setCaps({ [a]: 3, [c]: null })).toEqual({ [a]: 2 });
      expect(await work.setCaps({ [b]: null })).toEqual({ [b]: 0 });
      const caps = await work.caps();
      expect(caps[a]).toBe(3);
      expect(caps).not.toHaveProperty(b);
      expect(caps).not.toHaveProperty(c);
      expect(await work.setCaps({})).toEqual({});
    });

    it('WRK-10 setCaps refuses a name that is no agent name or a cap that is no whole number >= 0, naming it, and writes nothing', async () => {
      const agent = uniqueAgent('refused');
      const work = subject.work();
      const refused = (caps: unknown) =>
        rejection(
          Promise.resolve().then(() =>
            work.setCaps(caps as Readonly<Record<string, number | null>>),
          ),
        );
      expect(String(await refused({ [agent]: 1, 'two words': 1 }))).toContain('"two words"');
      expect(String(await refused({ [agent]: 1.5 }))).toContain(`the cap of agent ${agent}`);
      expect(String(await refused({ [agent]: -1 }))).toContain('whole number >= 0 or null');
      expect(String(await refused({ [agent]: '2' }))).toContain(agent);
      expect(String(await refused(null))).toContain('caps must be an object');
      expect(await work.caps()).not.toHaveProperty(agent);
    });

    it('WRK-10 findWork gives an agent at most its cap minus its runs with a live lease, and none at its cap', async () => {
      const capped = uniqueAgent('capped');
      const free = uniqueAgent('free');
      await streamWith(subject, 'cap-run', running(capped, 'w', 600_000));
      const waiting = [];
      for (let n = 0; n < 3; n += 1) waiting.push(await requested(`cap-wait-${n}`, capped));
      const freeStream = await streamWith(subject, 'cap-free', { status: 'ready', agent: free });
      await subject.work().setCaps({ [capped]: 1 });
      expect(await found(subject, [capped, free])).toEqual([freeStream]);
      await subject.work().setCaps({ [capped]: 2 });
      expect(await found(subject, [capped, free])).toEqual([waiting[0], freeStream]);
      await subject.work().setCaps({ [capped]: 10 });
      expect(await found(subject, [capped])).toEqual(waiting);
      await subject.work().setCaps({ [capped]: 0, [free]: 0 });
      expect(await found(subject, [capped, free])).toEqual([]);
      await subject.work().setCaps({ [capped]: null, [free]: null });
      expect(await found(subject, [capped, free])).toEqual([...waiting, freeStream]);
    });

    it('WRK-10 a claim of a run whose agent is at its cap is refused by the store: agentAtCap, nothing appended, the entry unchanged', async () => {
      const agent = uniqueAgent('at-cap');
      await subject.work().setCaps({ [agent]: 1 });
      const first = await requested('at-cap-1', agent);
      const second = await requested('at-cap-2', agent);
      expect(await claim(first, agent, 'w1')).toBe('ok');
      const error = await rejection(
        subject.store().appendToStream(second, [runStarted()], {
          expectedRevision: 0,
          ...claimOf(agent, 'w2'),
        }),
      );
      expect(error).toMatchObject({ code: 'agentAtCap', streamId: second, agent, cap: 1 });
      expect(error).toMatchObject({ running: 1 });
      expect(String((error as Error).message)).toContain(`agent ${agent} is at its cap of 1 run`);
      expect(await subject.store().readStream(second)).toHaveLength(1);
      expect((await subject.work().workOf([second])).get(second)).toEqual({
        status: 'requested',
        agent,
      });
      // A claim whose entry names no agent is judged under the name the stream's entry holds.
      expect(await claim(second, undefined, 'w2')).toBe('agentAtCap');
      // The first run ends: its place is free, and the second run is claimed.
      await subject.store().appendToStream(first, numbered(1, 2), {
        expectedRevision: 1,
        work: { status: 'idle', agent },
        fence: 1,
      });
      expect(await claim(second, agent, 'w2')).toBe('ok');
      expect((await subject.work().workOf([second])).get(second)).toMatchObject({
        status: 'running',
        owner: 'w2',
        fence: 1,
      });
    });

    it('WRK-10 the claiming stream is not counted: its holder claims it again at the cap, and another owner meets its live run first (runOwned)', async () => {
      const agent = uniqueAgent('own');
      await subject.work().setCaps({ [agent]: 1 });
      const streamId = await requested('own', agent);
      expect(await claim(streamId, agent, 'w1')).toBe('ok');
      expect(await claim(streamId, agent, 'w1', 60_000, 1)).toBe('ok');
      // The fence is judged before the cap, in every store.
      expect(await claim(streamId, agent, 'w2', 60_000, 2)).toBe('runOwned');
      const other = await requested('own-other', agent);
      const taken = await requested('own-taken', agent);
      await subject.work().setCaps({ [agent]: 3 });
      expect(await claim(other, agent, 'w3')).toBe('ok');
      await subject.work().setCaps({ [agent]: 1 });
      // Over its cap (lowered below its live runs) and live under another owner: runOwned.
      expect(await claim(other, agent, 'w4', 60_000, 1)).toBe('runOwned');
      expect(await claim(taken, agent, 'w4')).toBe('agentAtCap');
    });

    it("WRK-10 a run whose lease lapsed by the store's clock holds no place under the cap", async () => {
      const agent = uniqueAgent('lapsed');
      await subject.work().setCaps({ [agent]: 1 });
      const first = await requested('lapsed-1', agent);
      const second = await requested('lapsed-2', agent);
      expect(await claim(first, agent, 'w1', 300)).toBe('ok');
      expect(await found(subject, [agent])).toEqual([]);
      await pass(400);
      // Both need work now, but the cap lets one be listed: the oldest.
      expect(await found(subject, [agent])).toEqual([second]);
      expect(await claim(second, agent, 'w2')).toBe('ok');
      expect(await claim(first, agent, 'w3', 60_000, 1)).toBe('agentAtCap');
    });

    it('WRK-10 only a claim that leaves its run running is capped: requests, stops, the live runs of a lowered cap and their renewals go on', async () => {
      const agent = uniqueAgent('only-claims');
      const live = await requested('only-live', agent);
      expect(await claim(live, agent, 'w1')).toBe('ok');
      await subject.work().setCaps({ [agent]: 0 });
      // The live run goes on: its appends state its token, and its lease is renewed.
      await subject.store().appendToStream(live, numbered(1, 2), {
        expectedRevision: 1,
        work: running(agent, 'w1', 60_000),
        fence: 1,
      });
      expect(await subject.work().renewLease(live, 'w1', 60_000, 1)).toBe(true);
      // A request and a decision of the agent are written; no claim of its runs is.
      const asked = await requested('only-asked', agent);
      await subject.store().appendToStream(asked, numbered(1, 1), {
        expectedRevision: 0,
        work: { status: 'ready', agent },
      });
      expect(await claim(asked, agent, 'w2', 60_000, 1)).toBe('agentAtCap');
      // A claim that stops a run at once (it leaves the stream idle) takes no place.
      const crashed = uniqueStreamId('only-crashed');
      await subject.store().appendToStream(crashed, [runStarted()], {
        expectedRevision: 'noStream',
        work: { status: 'idle', agent },
        claim: { owner: 'w3', leaseMs: 60_000 },
      });
      expect((await subject.work().workOf([crashed])).get(crashed)).toMatchObject({
        status: 'idle',
        fence: 0,
      });
      await subject.work().setCaps({ [agent]: null });
      expect(await claim(asked, agent, 'w2', 60_000, 1)).toBe('ok');
    });
  });
}
