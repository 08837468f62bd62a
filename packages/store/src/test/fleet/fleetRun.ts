// One run of the fleet's chaos test on one store: requests the runs, starts the fleet, plays the
// reviewer, applies the chaos (a kill -9 every 1–2 s with a restart, a SIGSTOP of one worker in the
// middle of a charge for two leases, and the server's restart when the store has one), waits until
// every run finished (bounded by deadlines, never by the machine's speed), stops the fleet, and
// hands the streams and the logs to the analyser.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { requestRun, type EventStore, type StreamEvent } from '@agentlog/core';
import { analyseFleet } from './fleetAnalysis.js';
import type { FleetLogs, FleetReport, OutageEntry } from './fleetLogs.js';
import { failuresOf, tableHeader, tableRow } from './fleetVerdict.js';
import { Fleet, sleep, type SlotPlan } from './fleetControl.js';
import {
  agentName,
  loggingStore,
  monotonicMs,
  taskOf,
  type AppendEntry,
  type EffectEntry,
  type PendingEntry,
} from './fleetScenario.js';
import { Reviewer, type ReviewerCounts } from './fleetReviewer.js';

/** Where the fleet's events live. */
export interface FleetTarget {
  readonly label: 'SQLite' | 'PostgreSQL';
  readonly kind: 'sqlite' | 'postgres';
  /** The SQLite file (in `dir`), or the PostgreSQL URL. */
  location(dir: string): string;
  readonly schema?: string;
  /** A store of the test process's own. */
  open(dir: string): EventStore & { close(): unknown };
  /** Stops the store's server and starts it again (PostgreSQL), if the run restarts it. */
  readonly restart?: { stop(): Promise<void>; start(): Promise<void> };
}

/** How big the run is and how long it may take. */
export interface FleetPlan {
  readonly runs: number;
  readonly slots: readonly SlotPlan[];
  /** The slot whose worker is stopped with SIGSTOP in the middle of a slow charge. */
  readonly pauseSlot: string;
  readonly leaseMs: number;
  readonly concurrency: number;
  readonly pollMs: number;
  /** How long the chaos may last; the runs not finished by then get `calmMs` without it. */
  readonly chaosMs: number;
  readonly calmMs: number;
  /** The random kills' seed (printed, so a run can be repeated). */
  readonly seed: number;
}

/** What a run of the fleet gives the test. */
export interface FleetResult {
  readonly report: FleetReport;
  readonly failures: string[];
  readonly seconds: number;
  readonly table: string;
}

/** How often the pause is tried until another worker claims the paused run. */
const maxPauses = 6;

/** Runs the fleet on `target` as `plan` says; the caller asserts on the failures. */
export async function runFleet(target: FleetTarget, plan: FleetPlan): Promise<FleetResult> {
  const began = monotonicMs();
  const dir = await mkdtemp(join(tmpdir(), `agentlog-fleet-${target.kind}-`));
  const files = {
    appends: join(dir, 'appends.jsonl'),
    effects: join(dir, 'effects.jsonl'),
    pending: join(dir, 'pending.jsonl'),
  };
  for (const file of Object.values(files)) await writeFile(file, '');
  const store = loggingStore(target.open(dir), files.appends, 'test');
  const fleet = new Fleet(plan.slots, {
    kind: target.kind,
    location: target.location(dir),
    ...(target.schema === undefined ? {} : { schema: target.schema }),
    dir,
    leaseMs: plan.leaseMs,
    concurrency: plan.concurrency,
    pollMs: plan.pollMs,
  });
  const chaosProblems: string[] = [];
  /** How many runs had finished, every 5 s from the start (seconds, count). */
  const finishedBySecond: [number, number][] = [];
  const outages: OutageEntry[] = [];
  /** Each pause: its run, and whether another worker claimed it meanwhile. */
  const pauses: { streamId: string; pid: number; claimed: boolean }[] = [];
  let reviewer: Reviewer | undefined;
  let chaosEnded = false;
  try {
    const streamIds = Array.from(
      { length: plan.runs },
      (_, index) => `fleet-${String(index + 1).padStart(3, '0')}`,
    );
    for (const streamId of streamIds)
      await requestRun(store, { streamId, agent: agentName, input: taskOf(streamId), by: 'chaos' });

    fleet.spare(plan.pauseSlot, Infinity);
    fleet.start();
    reviewer = new Reviewer(store);
    if (!(await fleet.started(60_000)))
      chaosProblems.push('not every worker reported its start within 60 s');

    const finished = new Set<string>();
    let chaosOver = false;
    /** No kills while the paused worker is stopped: the others must have room to claim its run. */
    let killsHeld = false;
    const random = mulberry32(plan.seed);
    const chaosEnds = monotonicMs() + plan.chaosMs;
    // Once the chaos is over, the runs not finished yet have calmMs more.
    let calmEnds = Infinity;

    const progress = async (): Promise<void> => {
      while (!chaosOver || finished.size < plan.runs) {
        for (const streamId of streamIds) {
          if (finished.has(streamId)) continue;
          const last = await store
            .readStream(streamId, { direction: 'backwards', maxCount: 1 })
            .then(([event]) => event)
            .catch(() => undefined);
          if (
            last?.type === 'AgentStopped' &&
            (last.data as { reason?: { kind?: string } }).reason?.kind === 'noNewMessages'
          )
            finished.add(streamId);
        }
        const second = Math.floor((monotonicMs() - began) / 1_000);
        if (second >= 5 * finishedBySecond.length) finishedBySecond.push([second, finished.size]);
        if (chaosOver && monotonicMs() > calmEnds) return;
        await sleep(500);
      }
    };
    const kills = async (): Promise<void> => {
      while (!chaosOver) {
        await sleep(1_000 + random() * 1_000);
        if (!chaosOver && !killsHeld) fleet.killOne(random);
      }
    };

    // The server restarts once, when a quarter of the runs finished or after 20 s.
    let restarted = target.restart === undefined;
    const restart = async (): Promise<void> => {
      const server = target.restart;
      if (server === undefined) return;
      const startedAt = monotonicMs();
      while (!chaosOver && finished.size < plan.runs / 4 && monotonicMs() - startedAt < 20_000)
        await sleep(200);
      if (chaosOver) return;
      const outage: { downAt: number; upAt?: number; cause: string } = {
        downAt: monotonicMs(),
        cause: 'the server restarted',
      };
      outages.push(outage);
      try {
        await server.stop();
        await sleep(1_000);
      } finally {
        await server.start();
        outage.upAt = monotonicMs();
      }
      restarted = true;
    };

    // The pause: once the backlog is down and the restart is behind it (so that a worker has a
    // free slot to claim the paused run), the pause slot's worker is stopped in the middle of a
    // slow charge for two leases (the kills held meanwhile: a fleet whose other workers are all
    // restarting has no one to claim the run), and watched for a lease once continued. If no
    // other worker claimed its run meanwhile, it is paused again on a later slow charge, up to
    // maxPauses times. The kills spare it until then.
    const pause = async (): Promise<void> => {
      let after = 0;
      while (!chaosOver && pauses.length < maxPauses && !pauses.some((result) => result.claimed)) {
        await sleep(50);
        if (finished.size < plan.runs * 0.35 || !restarted) continue;
        const pid = fleet.pids.get(plan.pauseSlot);
        if (pid === undefined) continue;
        const charging = (await readLines<PendingEntry>(files.pending)).find(
          (entry) =>
            entry.pid === pid &&
            entry.slow &&
            entry.at > after &&
            monotonicMs() - entry.at < plan.leaseMs / 2,
        );
        if (charging === undefined) continue;
        killsHeld = true;
        const entry = await fleet
          .pause(plan.pauseSlot, pid, charging.streamId, 2 * plan.leaseMs)
          .finally(() => {
            killsHeld = false;
          });
        if (entry === undefined) continue;
        await sleep(plan.leaseMs);
        after = entry.continuedAt ?? monotonicMs();
        const appends = await readLines<AppendEntry>(files.appends);
        // A worker stopped in the middle of a write holds the store's write lock (SQLite's, or a
        // PostgreSQL row lock): then nobody could append while it was stopped, and the store was as
        // good as down for every run, which the analyser must know to judge their takeovers.
        const storeWritable = appends.some(
          (append) =>
            append.pid !== pid &&
            append.at > entry.stoppedAt + 500 &&
            append.at < (entry.continuedAt ?? entry.stoppedAt),
        );
        if (!storeWritable)
          outages.push({
            downAt: entry.stoppedAt,
            upAt: entry.continuedAt ?? monotonicMs(),
            cause: 'nothing was appended while the paused worker was stopped',
          });
        const claimed = appends.some(
          (append) =>
            append.streamId === entry.streamId &&
            append.type === 'RunStarted' &&
            append.pid !== pid &&
            append.calledAt >= entry.stoppedAt,
        );
        pauses.push({ streamId: entry.streamId, pid, claimed });
      }
      fleet.spare(plan.pauseSlot, 0);
    };

    const watching = progress();
    const chaos = [kills(), pause(), restart()];
    const pausesDone = (): boolean =>
      pauses.some((result) => result.claimed) || pauses.length >= maxPauses;
    // The chaos lasts chaosMs, longer (up to twice as long) while the restart or the pause is
    // still to come, and ends at once when every run finished: nothing is left to disturb then.
    const chaosCap = chaosEnds + plan.chaosMs;
    for (;;) {
      const now = monotonicMs();
      if (finished.size === plan.runs && restarted) break;
      if (now >= chaosEnds && restarted && pausesDone()) break;
      if (now >= chaosCap) break;
      await sleep(250);
    }
    chaosOver = true;
    calmEnds = monotonicMs() + plan.calmMs;
    await Promise.all(chaos);
    await watching;
    if (pauses.length === 0)
      chaosProblems.push('the pause never happened: its worker charged no slow call in time');
    else if (!pauses.some((result) => result.claimed))
      chaosProblems.push(
        `no worker claimed the paused worker's run during its ${pauses.length} pause(s): the pause tested nothing`,
      );
    if (!restarted) chaosProblems.push('the server was never restarted');
    if (fleet.kills.length === 0) chaosProblems.push('no worker was killed');
    chaosEnded = true;
  } finally {
    await reviewer?.stop();
    await fleet.stop(15_000);
    if (!chaosEnded) {
      await Promise.resolve(store.close());
      await rm(dir, { recursive: true, force: true });
    }
  }

  try {
    const streams = new Map<string, StreamEvent[] | { readError: string }>();
    for (const streamId of await store.listStreams()) {
      streams.set(
        streamId,
        await store.readStream(streamId).catch((error: unknown) => ({
          readError: error instanceof Error ? error.message : String(error),
        })),
      );
    }
    const logs: FleetLogs = {
      leaseMs: plan.leaseMs,
      streams,
      appends: await readLines<AppendEntry>(files.appends),
      effects: await readLines<EffectEntry>(files.effects),
      notes: fleet.notes,
      kills: fleet.kills,
      exits: fleet.exits,
      pauses: fleet.pauses,
      outages,
    };
    const report = analyseFleet(logs);
    // FLEET_CHAOS_DUMP=<folder> keeps what the analyser read, to look into a run afterwards.
    const dump = process.env['FLEET_CHAOS_DUMP'];
    if (dump !== undefined && dump !== '') {
      await mkdir(dump, { recursive: true });
      await writeFile(
        join(dump, `${target.kind}-${plan.seed}.json`),
        JSON.stringify({
          ...logs,
          streams: Object.fromEntries(streams),
          progress: finishedBySecond,
          report,
        }),
      );
    }
    const seconds = (monotonicMs() - began) / 1_000;
    const table = [...tableHeader, tableRow(target.label, report.figures, seconds)].join('\n');
    console.log(
      [
        `The fleet's chaos test on ${target.label} (seed ${plan.seed}, lease ${plan.leaseMs} ms, ${plan.slots.length} workers × ${plan.concurrency}):`,
        table,
        describeRun(outages, report, reviewer?.counts, fleet),
        `pauses: ${pauses.map((result) => `${result.pid} on ${result.streamId}: ${result.claimed ? 'claimed by another worker' : 'not claimed'}`).join('; ') || 'none'}`,
        `finished runs by second: ${finishedBySecond.map(([second, count]) => `${second}s ${count}`).join(', ')}`,
      ].join('\n'),
    );
    return {
      report,
      failures: [...chaosProblems, ...failuresOf(report)],
      seconds,
      table,
    };
  } finally {
    await Promise.resolve(store.close());
    await rm(dir, { recursive: true, force: true });
  }
}

/** What the table does not show: how each takeover is judged, what the workers logged. */
function describeRun(
  outages: readonly OutageEntry[],
  report: FleetReport,
  reviewer: ReviewerCounts | undefined,
  fleet: Fleet,
): string {
  const { figures, excuses } = report;
  const counts = new Map<string, number>();
  for (const note of fleet.notes) {
    const key =
      note.kind === 'warn'
        ? `warn ${note.code ?? note.message.replace(/stream \S+/g, 'stream …').slice(0, 60)}`
        : note.kind;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [
    `takeovers by what had happened to the owner: ${JSON.stringify(excuses)}; live: ${figures.liveTakeovers}`,
    `stale appends (any worker, after another claimed the run): ${figures.staleAppends}; unattributed events: ${figures.unattributed}; missing charges: ${figures.missingCharges}; unfoldable streams: ${figures.unfoldable}`,
    `reviewer: ${JSON.stringify(reviewer ?? {})}`,
    `store outages: ${outages.map((outage) => `${outage.cause} (${Math.round((outage.upAt ?? outage.downAt) - outage.downAt)} ms)`).join('; ') || 'none'}`,
    `SIGSTOPs: ${fleet.pauses.map((pause) => `${pause.slot}-${pause.pid} on ${pause.streamId} for ${Math.round((pause.continuedAt ?? pause.stoppedAt) - pause.stoppedAt)} ms`).join('; ') || 'none'}`,
    `worker notes: ${JSON.stringify(Object.fromEntries(counts))}`,
    `unexpected exits: ${fleet.unexpectedExits.length === 0 ? 'none' : fleet.unexpectedExits.slice(0, 5).join(' || ')}`,
    ...report.details.liveTakeovers.slice(0, 5).map((line) => `  live takeover: ${line}`),
    ...report.details.doubleEffects.slice(0, 5).map((line) => `  double effect: ${line}`),
    ...report.details.unfinished.slice(0, 5).map((line) => `  unfinished: ${line}`),
  ].join('\n');
}

async function readLines<T>(file: string): Promise<T[]> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter((line) => line !== '')
    .flatMap((line) => {
      try {
        return [JSON.parse(line) as T];
      } catch {
        // A line a SIGKILL cut short (O_APPEND writes of a few hundred bytes are whole in practice).
        return [];
      }
    });
}

/** A small seeded generator: the kills of a run can be replayed with its seed. */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
