// The judge of the fleet's chaos test (fleetAnalysis.ts) on real streams, made in one process by
// the real agent on the in-memory store: two "workers" (their identities given to `run`) share a
// stream, the second taking the first's run while its charge is in flight. No processes, no time.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Agent,
  approvalRequired,
  createInMemoryEventStore,
  recordDecision,
  requestRun,
  ToolFeedback,
  type EventStore,
  type Tool,
} from '@agentlog/core';
import { runWithChannel } from '@agentlog/core/replay-kit';
import { afterEach, describe, expect, it } from 'vitest';
import { analyseFleet } from './fleetAnalysis.js';
import type { FleetLogs, KillEntry } from './fleetLogs.js';
import { failuresOf } from './fleetVerdict.js';
import {
  agentName,
  chargeCallId,
  chargeModel,
  loggingStore,
  monotonicMs,
  taskOf,
  type AppendEntry,
  type EffectEntry,
} from './fleetScenario.js';

const streamId = 'fleet-001';
const first = { id: 'w1-101', host: 'test', pid: 101 };
const second = { id: 'w2-102', host: 'test', pid: 102 };
const pidOf: Record<string, number> = { w1: first.pid, w2: second.pid };

/** A charge whose side effect is a line in `effects` (with the worker's pid) once `go` resolves. */
function charge(pid: number, effects: EffectEntry[], started: () => void, go: Promise<void>): Tool {
  return approvalRequired({
    name: 'charge',
    idempotent: false,
    spec: () => ({ name: 'charge', description: 'charge', parameters: { type: 'object' } }),
    async invoke(_context, toolCall) {
      started();
      effects.push({ streamId, toolCallId: toolCall.id, pid, at: monotonicMs() });
      await go;
      return 'charged';
    },
  });
}

let dir: string | undefined;
afterEach(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  dir = undefined;
});

/**
 * The first worker runs the stream up to its charge, which charges and then hangs; the second
 * takes the run over once its lease lapsed by the store's clock, the loop re-asks (TOOL-7), the reviewer approves, and the
 * second worker charges and finishes the run. `chargeFirstAfterTakeover` moves the first charge
 * after the takeover: the first worker then charges a run it no longer holds.
 */
async function takeover(chargeFirstAfterTakeover: boolean): Promise<{
  logs: Omit<FleetLogs, 'kills'>;
  takenAt: number;
  firstChargedAt: number;
}> {
  dir = await mkdtemp(join(tmpdir(), 'agentlog-fleet-analysis-'));
  const file = join(dir, 'appends.jsonl');
  await writeFile(file, '');
  // The store's clock: moved past the first worker's lease for the takeover (SPEC WRK-4).
  let offsetMs = 0;
  const store = createInMemoryEventStore({ clock: () => new Date(Date.now() + offsetMs) });
  const as = (slot: string): EventStore => loggingStore(store, file, slot);
  const effects: EffectEntry[] = [];
  const approve = () =>
    recordDecision(as('test'), streamId, chargeCallId, ToolFeedback.approved(), { by: 'test' });
  await requestRun(as('test'), { streamId, agent: agentName, input: taskOf(streamId) });

  let release = (): void => undefined;
  const hang = new Promise<void>((resolve) => {
    release = resolve;
  });
  let entered = (): void => undefined;
  const inCharge = new Promise<void>((resolve) => {
    entered = resolve;
  });
  const build = (slot: string, tool: Tool) =>
    Agent.builder().llm(chargeModel).tools([tool]).store(as(slot)).streamId(streamId).build();

  const firstTool = charge(first.pid, effects, entered, hang);
  const firstAgent = await build('w1', firstTool);
  await firstAgent[runWithChannel]('run', undefined, {}, { worker: first });
  await approve();
  const firstRun = firstAgent[runWithChannel]('run', undefined, {}, { worker: first }).catch(
    () => undefined,
  );
  await inCharge;
  if (chargeFirstAfterTakeover) effects.pop();

  const secondAgent = await build(
    'w2',
    charge(second.pid, effects, () => undefined, Promise.resolve()),
  );
  const takenAt = monotonicMs();
  offsetMs += 10 * 60_000;
  await secondAgent[runWithChannel]('run', undefined, {}, { worker: second }).catch(
    () => undefined,
  );
  if (chargeFirstAfterTakeover)
    effects.push({ streamId, toolCallId: chargeCallId, pid: first.pid, at: monotonicMs() });
  const firstChargedAt = effects[0]?.at ?? 0;
  await approve();
  const finisher = await build(
    'w2',
    charge(second.pid, effects, () => undefined, Promise.resolve()),
  );
  await finisher[runWithChannel]('run', undefined, {}, { worker: second });
  // The first worker's charge returns now; its outcome meets the second's events and is refused.
  release();
  await firstRun;

  const appends = (await readFile(file, 'utf8'))
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as AppendEntry)
    .map((entry) => ({ ...entry, pid: pidOf[entry.slot] ?? entry.pid }));
  return {
    logs: {
      leaseMs: 2_500,
      streams: new Map([[streamId, await store.readStream(streamId)]]),
      appends,
      effects,
      notes: [],
      exits: [],
      pauses: [],
      outages: [],
    },
    takenAt,
    firstChargedAt,
  };
}

describe('the judge of the fleet chaos test (WRK-4, WRK-8, TOOL-7)', () => {
  it('counts a takeover of a live owner, and the stale charge of the owner it let through as a double effect', async () => {
    const { logs } = await takeover(true);
    const report = analyseFleet({ ...logs, kills: [] });
    expect(report.figures).toMatchObject({
      runs: 1,
      finished: 1,
      takeovers: 1,
      liveTakeovers: 1,
      ambiguousAsks: 1,
      doubleEffects: 1,
      toolReruns: 0,
      lostEvents: 0,
      unfoldable: 0,
      unattributed: 0,
    });
    expect(report.details.doubleEffects[0]).toContain(
      'charge 1 (by 101) came after another worker had claimed the run',
    );
    expect(failuresOf(report)).toEqual([
      expect.stringMatching(
        /^1 takeovers of a live owner: fleet-001 r\d+: w2-102 took the run of live w1-101/,
      ),
      expect.stringMatching(/^1 double effects: fleet-001: charged by 101, 102/),
    ]);
  });

  it('excuses the takeover of a killed owner, and the second charge TOOL-7 allows after it (the killed charger never recorded the outcome; a person approved again)', async () => {
    const { logs, firstChargedAt } = await takeover(false);
    const kill: KillEntry = { slot: 'w1', pid: first.pid, at: firstChargedAt + 0.001 };
    const report = analyseFleet({ ...logs, kills: [kill] });
    expect(report.figures).toMatchObject({
      finished: 1,
      takeovers: 1,
      liveTakeovers: 0,
      doubleEffects: 0,
      toolReruns: 1,
      ambiguousAsks: 1,
    });
    expect(report.excuses.ownerKilled).toBe(1);
    expect(failuresOf(report)).toEqual([]);
  });

  it('excuses the takeover of a paused owner, and counts an event the paused worker appends after the claim', async () => {
    const { logs, takenAt } = await takeover(false);
    const pause = {
      slot: 'w1',
      pid: first.pid,
      streamId,
      stoppedAt: takenAt - 1,
      continuedAt: takenAt + 1,
    };
    // An append the paused worker made after the second claimed the run, as a store without a fence lets it.
    const claim = logs.appends.find(
      (entry) => entry.pid === second.pid && entry.type === 'RunStarted',
    );
    const events = logs.streams.get(streamId) as unknown as {
      metadata: { eventId: string; revision: number };
    }[];
    const after = events.find((event) => event.metadata.revision === (claim?.revision ?? 0) + 1);
    const appends = logs.appends.map((entry) =>
      entry.eventId === after?.metadata.eventId ? { ...entry, pid: first.pid, slot: 'w1' } : entry,
    );
    const report = analyseFleet({ ...logs, appends, pauses: [pause], kills: [] });
    expect(report.excuses.ownerPaused).toBe(1);
    expect(report.figures.liveTakeovers).toBe(0);
    expect(report.figures.pausedAppendsAfterClaim).toBe(1);
    expect(failuresOf(report)).toContainEqual(
      expect.stringMatching(/^1 appends by the paused worker after another worker claimed its run/),
    );
  });

  it('counts an event an append returned that the stream does not hold as lost, and a stream left waiting as unfinished', async () => {
    const { logs } = await takeover(false);
    const events = logs.streams.get(streamId) as unknown as { metadata: { revision: number } }[];
    const waiting = events.slice(
      0,
      events.findIndex((event) => (event as { type?: string }).type === 'AgentStopped') + 1,
    );
    const ghost: AppendEntry = {
      pid: second.pid,
      slot: 'w2',
      streamId,
      revision: 3,
      eventId: 'not-stored',
      type: 'UserMessageAdded',
      calledAt: 0,
      at: 0,
    };
    const report = analyseFleet({
      ...logs,
      streams: new Map([[streamId, waiting as never]]),
      appends: [...logs.appends.filter((entry) => entry.revision < waiting.length), ghost],
      effects: [],
      kills: [],
    });
    expect(report.figures).toMatchObject({ runs: 1, finished: 0, lostEvents: 1, unfoldable: 0 });
    expect(failuresOf(report)).toEqual([
      expect.stringMatching(
        /^1 runs did not finish: fleet-001: ends with .*AgentStopped\(feedbackRequired\)/,
      ),
      expect.stringMatching(/^1 lost events: fleet-001 r3 UserMessageAdded \(not-stored\)/),
    ]);
  });
});
