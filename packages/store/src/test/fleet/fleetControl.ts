// The test's hand on the fleet of the chaos test: it starts the worker processes (a skewed one
// under `faketime`, with node as its command), restarts a slot whose process died, SIGKILLs,
// SIGSTOPs and SIGCONTs them, and keeps the logs the analyser reads: kills, exits, pauses, and the
// notes each worker writes on its stderr. It never signals a process it did not start.
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { ExitEntry, KillEntry, PauseEntry } from './fleetLogs.js';
import { monotonicMs, notePrefix, type WorkerNote } from './fleetScenario.js';
import type { FleetWorkerOptions } from './fleetWorker.js';

const workerScript = join(import.meta.dirname, 'fleetWorker.ts');

/** The fleets whose processes may still run: `killAllFleets` ends them (afterAll, a timeout). */
const activeFleets = new Set<Fleet>();

/** SIGKILLs every process of every fleet not stopped yet. */
export function killAllFleets(): void {
  for (const fleet of activeFleets) fleet.killAll();
}

/** One place in the fleet: a restarted worker takes its slot (and its clock), with a new pid. */
export interface SlotPlan {
  readonly slot: string;
  /** faketime's offset (`+10m`, `-10m`), or none for the machine's clock. */
  readonly skew?: string;
}

interface Slot extends SlotPlan {
  /** The spawned process: node, or faketime with node as its child. */
  child: ChildProcess | undefined;
  /** The worker's own pid, once it reported its start. */
  pid: number | undefined;
  /** The test keeps it from the kills until then (the paused worker). */
  sparedUntil: number;
}

type WorkerBase = Omit<FleetWorkerOptions, 'slot' | 'parentPid'>;

/** The fleet: its processes, and what the test did to them. */
export class Fleet {
  readonly kills: KillEntry[] = [];
  readonly exits: ExitEntry[] = [];
  readonly pauses: PauseEntry[] = [];
  readonly notes: WorkerNote[] = [];
  /** Exits the test did not cause, with the end of the process's stderr. */
  readonly unexpectedExits: string[] = [];
  readonly #slots: Slot[];
  readonly #stderr = new Map<string, string[]>();
  readonly #killedPids = new Set<number>();
  readonly #startedPids = new Set<number>();
  #stopping = false;

  constructor(
    plans: readonly SlotPlan[],
    readonly base: WorkerBase,
  ) {
    this.#slots = plans.map((plan) => ({
      ...plan,
      child: undefined,
      pid: undefined,
      sparedUntil: 0,
    }));
  }

  /** Starts every slot's worker. */
  start(): void {
    activeFleets.add(this);
    for (const slot of this.#slots) this.#spawn(slot);
  }

  /** The live workers' pids by slot (those that reported their start). */
  get pids(): ReadonlyMap<string, number> {
    const pids = new Map<string, number>();
    for (const slot of this.#slots) if (slot.pid !== undefined) pids.set(slot.slot, slot.pid);
    return pids;
  }

  /** Waits until every slot's worker reported its start (or `timeoutMs` passed). */
  async started(timeoutMs: number): Promise<boolean> {
    const deadline = monotonicMs() + timeoutMs;
    while (monotonicMs() < deadline) {
      if (this.#slots.every((slot) => slot.pid !== undefined)) return true;
      await sleep(100);
    }
    return false;
  }

  /** Keeps the worker of `slot` from the kills until `until` (monotonic ms; Infinity: for now). */
  spare(slot: string, until: number): void {
    this.#slot(slot).sparedUntil = until;
  }

  /** SIGKILLs the worker of a random slot that is not spared; its slot starts a new one at once. */
  killOne(random: () => number): KillEntry | undefined {
    const now = monotonicMs();
    const candidates = this.#slots.filter(
      (slot) => slot.pid !== undefined && slot.sparedUntil < now && slot.child !== undefined,
    );
    const slot = candidates[Math.floor(random() * candidates.length)];
    if (slot?.pid === undefined) return undefined;
    const entry: KillEntry = { slot: slot.slot, pid: slot.pid, at: monotonicMs() };
    this.kills.push(entry);
    this.#killedPids.add(slot.pid);
    signal(slot.pid, 'SIGKILL');
    return entry;
  }

  /**
   * SIGSTOPs the worker `pid` of `slot` (charging `streamId`) for `ms`, then SIGCONTs it. A small
   * helper process of its own does both and reads the times: the test process's event loop may
   * wait on the store meanwhile (a SQLite write lock the stopped worker holds blocks it for up to
   * the busy timeout), and the worker must be continued on time anyway.
   */
  async pause(
    slot: string,
    pid: number,
    streamId: string,
    ms: number,
  ): Promise<PauseEntry | undefined> {
    const helper = spawn(process.execPath, ['-e', pauseScript], {
      env: { ...process.env, FLEET_PAUSE_PID: String(pid), FLEET_PAUSE_MS: String(ms) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let output = '';
    helper.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    const calledAt = monotonicMs();
    const index = this.pauses.push({ slot, pid, streamId, stoppedAt: calledAt }) - 1;
    await new Promise((resolve) => helper.once('close', resolve));
    const times = (() => {
      try {
        return JSON.parse(output) as { stoppedAt: number; continuedAt: number };
      } catch {
        return undefined;
      }
    })();
    if (times === undefined) {
      // The helper could not stop it (it was gone) or died: no pause happened, or it ends now.
      signal(pid, 'SIGCONT');
      this.pauses.splice(index, 1);
      return undefined;
    }
    const entry: PauseEntry = { slot, pid, streamId, ...times };
    this.pauses[index] = entry;
    return entry;
  }

  /**
   * Asks every worker to shut down (SIGTERM: its signal aborts, WRK-5), waits up to `graceMs`,
   * then SIGKILLs what is left. No slot restarts from now on.
   */
  async stop(graceMs: number): Promise<void> {
    this.#stopping = true;
    for (const slot of this.#slots) {
      if (slot.pid !== undefined) {
        signal(slot.pid, 'SIGCONT');
        signal(slot.pid, 'SIGTERM');
      } else if (slot.child?.pid !== undefined) {
        // Not started yet: its process group (faketime and node) gets the SIGTERM.
        signal(-slot.child.pid, 'SIGTERM');
      }
    }
    await this.#settle(graceMs);
    this.killAll();
    await this.#settle(5_000);
    activeFleets.delete(this);
  }

  /** SIGKILLs every process of the fleet at once, and restarts none (afterAll, failures). */
  killAll(): void {
    this.#stopping = true;
    for (const slot of this.#slots) {
      if (slot.pid !== undefined) {
        this.#killedPids.add(slot.pid);
        signal(slot.pid, 'SIGKILL');
      }
      // Each worker leads a process group of its own: faketime and its node go together.
      if (slot.child?.pid !== undefined) signal(-slot.child.pid, 'SIGKILL');
    }
  }

  /** Waits until no process of the fleet is left, or `timeoutMs` passed. */
  async #settle(timeoutMs: number): Promise<void> {
    const deadline = monotonicMs() + timeoutMs;
    const alive = (): boolean =>
      this.#slots.some((slot) => slot.child !== undefined) ||
      [...this.#startedPids].some((pid) => exists(pid));
    while (monotonicMs() < deadline && alive()) await sleep(100);
  }

  /** The last lines a slot's workers wrote on stderr that were no notes. */
  stderrOf(slot: string): readonly string[] {
    return this.#stderr.get(slot) ?? [];
  }

  #slot(name: string): Slot {
    const slot = this.#slots.find((candidate) => candidate.slot === name);
    if (slot === undefined) throw new Error(`no slot ${name}`);
    return slot;
  }

  #spawn(slot: Slot): void {
    if (this.#stopping) return;
    const options: FleetWorkerOptions = { ...this.base, slot: slot.slot, parentPid: process.pid };
    const nodeArgs = [
      '--conditions=source',
      '--import',
      'tsx',
      workerScript,
      JSON.stringify(options),
    ];
    // The skewed worker: faketime with node as its command, in the test's environment. Only its
    // wall clock is off; CLOCK_MONOTONIC stays the machine's, which the logs' times are read from.
    const child =
      slot.skew === undefined
        ? spawn(process.execPath, nodeArgs, { stdio: ['ignore', 'ignore', 'pipe'], detached: true })
        : spawn('faketime', ['-f', slot.skew, process.execPath, ...nodeArgs], {
            env: { ...process.env, FAKETIME_DONT_FAKE_MONOTONIC: '1' },
            stdio: ['ignore', 'ignore', 'pipe'],
            detached: true,
          });
    slot.child = child;
    slot.pid = undefined;
    let pid: number | undefined;
    const lines = createInterface({ input: child.stderr as NodeJS.ReadableStream });
    lines.on('line', (line) => {
      if (line.startsWith(notePrefix)) {
        const note = JSON.parse(line.slice(notePrefix.length)) as WorkerNote;
        this.notes.push(note);
        if (note.kind === 'started' && slot.child === child) {
          this.#startedPids.add(note.pid);
          pid = note.pid;
          slot.pid = note.pid;
        }
        return;
      }
      const tail = this.#stderr.get(slot.slot) ?? [];
      tail.push(line);
      if (tail.length > 40) tail.shift();
      this.#stderr.set(slot.slot, tail);
    });
    child.once('error', (error) => {
      this.unexpectedExits.push(`${slot.slot}: could not start: ${error.message}`);
    });
    child.once('exit', (code, signalName) => {
      const known = pid ?? child.pid ?? -1;
      const expected = this.#killedPids.has(known) || this.#stopping;
      const how = signalName === null ? `exit ${String(code)}` : signalName;
      this.exits.push({ slot: slot.slot, pid: known, at: monotonicMs(), expected, how });
      if (!expected)
        this.unexpectedExits.push(
          `${slot.slot}-${known} ended by itself (${how}): ${this.stderrOf(slot.slot).slice(-5).join(' | ')}`,
        );
      if (slot.child === child) {
        slot.child = undefined;
        slot.pid = undefined;
        // The slot starts a new worker at once (a new pid); after an unexpected end, after a breath.
        if (expected) this.#spawn(slot);
        else setTimeout(() => this.#spawn(slot), 250);
      }
    });
  }
}

/** The pause helper: SIGSTOP, wait, SIGCONT, and print both times (CLOCK_MONOTONIC, ms). */
const pauseScript = `
const pid = Number(process.env.FLEET_PAUSE_PID);
const now = () => Number(process.hrtime.bigint()) / 1e6;
try {
  process.kill(pid, 'SIGSTOP');
} catch {
  process.exit(1);
}
const stoppedAt = now();
setTimeout(() => {
  try {
    process.kill(pid, 'SIGCONT');
  } catch {
    // It is gone: the test's end killed it.
  }
  process.stdout.write(JSON.stringify({ stoppedAt, continuedAt: now() }));
}, Number(process.env.FLEET_PAUSE_MS));
`;

/** Whether the process `pid` still exists (a zombie counts until its parent reaps it). */
function exists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // It is gone already.
  }
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
