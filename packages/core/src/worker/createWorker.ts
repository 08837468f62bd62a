import { hostname } from 'node:os';
import { Subject, type Observable } from 'rxjs';
import { AgentError } from '../errors/agentError.js';
import { describeThrown } from '../errors/toolError.js';
import type { WorkerIdentity } from '../events/agentEvent.js';
import type { Logger } from '../api/hooks.js';
import type { EventStore } from '../ports/eventStore.js';
import type { WorkIndex, WorkItem } from '../ports/workIndex.js';
import { assertAgentCaps } from '../store/workIndexChecks.js';
import { uuidV7 } from '../support/uuidV7.js';
import { publishCaps } from './publishCaps.js';
import { reportActivity } from './reportActivity.js';
import { shutDownSlots } from './shutDownSlots.js';
import type { WorkerActivity } from './workerActivity.js';
import type { WorkerAgents } from './workerAgent.js';
import { startSlot, type WorkerSlot } from './workerSlot.js';

/** What a worker is given (SPEC WRK-1 … WRK-10). */
export interface WorkerOptions {
  /** The store; it must keep a work index (`store.work`). */
  readonly store: EventStore;
  /** The agents this worker runs, by registered name. */
  readonly agents: WorkerAgents;
  /** How many runs it holds at once. Default 1. */
  readonly concurrency?: number;
  /** Its id, recorded in every run it takes (SPEC WRK-7). Default: host, pid and a unique suffix. */
  readonly id?: string;
  /** The host it names. Default: the OS host name. */
  readonly host?: string;
  /** Aborting it shuts the worker down gracefully (SPEC WRK-5), as `stop()` does. */
  readonly signal?: AbortSignal;
  /** Where it reports failed runs, lost leases and work it cannot serve. Default: `console.warn`. */
  readonly logger?: Logger;
  /** How long running steps may take to finish once it is told to stop. Default 30 s. */
  readonly graceMs?: number;
  /** How long it waits for work between two looks at the index, at most. Default 1 s. */
  readonly pollMs?: number;
  /**
   * Caps per agent name (SPEC WRK-10): at most this many runs of the agent at once, across all
   * workers and processes on the store. The worker writes them into the store as it starts, where
   * every claim is judged against them; the last worker to start sets a name's cap (and logs it
   * when it replaced another value); `null` removes one. Names it leaves out keep their cap.
   */
  readonly caps?: Readonly<Record<string, number | null>>;
}

/**
 * A running worker (SPEC WRK-5): what it holds, what it does, and how to stop it. Awaiting it
 * waits until it stopped, so `await createWorker({ signal })` runs a worker until `signal` aborts.
 */
export interface Worker extends PromiseLike<void> {
  /** Who it is, as its runs record it (SPEC WRK-7). */
  readonly identity: WorkerIdentity;
  /** The streams whose runs it holds now. */
  runs(): string[];
  /** Each claim, release, wait for a person, loss and failure, as it happens. */
  readonly activity$: Observable<WorkerActivity>;
  /**
   * Claims nothing more, lets its runs finish for `graceMs`, aborts and releases the rest,
   * retires; resolves when that is done (SPEC WRK-5).
   */
  stop(): Promise<void>;
  /** Settles once the worker stopped. */
  readonly done: Promise<void>;
}

/** How often a worker looks for work that none of its agent names can take (SPEC WRK-9). */
const UNSERVED_EVERY_MS = 30_000;

/**
 * Beside other workers, a worker picks its next runs at random among this many times as many of
 * the oldest waiting streams as it has free slots, so that workers finding work at the same moment
 * mostly take different runs instead of racing for the oldest (each lost race costs the loser a
 * build and a refused claim). Alone, it takes them oldest first.
 */
const SPREAD = 4;

/**
 * Starts a worker on the store's work index (SPEC WRK-1 … WRK-10). It takes a requested run, a
 * run whose every waiting call holds a decision, and a run whose lease lapsed by the store's
 * clock; each run's first append claims the stream, and the store refuses the claim while
 * another process holds a live lease (WRK-4), so of workers racing for one run exactly one takes
 * it; nor does it take a run of an agent at its cap in the store (WRK-10), which its `caps`
 * option sets as it starts. Runs renew their own lease. Told to stop, it claims nothing more,
 * lets running runs finish for `graceMs`, aborts the rest, records `RunReleased` for each so
 * another worker continues it at once, and retires. A store without a work index is refused.
 */
export function createWorker(options: WorkerOptions): Worker {
  const { store, agents, caps } = options;
  const work = store.work;
  if (work === undefined) {
    throw new AgentError(
      'invalidConfiguration',
      `${store.label ?? 'this store'} keeps no work index (store.work), so no worker can find work in it; use the in-memory, SQLite or PostgreSQL store`,
    );
  }
  const concurrency = options.concurrency ?? 1;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new AgentError(
      'invalidConfiguration',
      `concurrency must be a whole number of 1 or more, got ${concurrency}`,
    );
  }
  if (caps !== undefined) {
    try {
      assertAgentCaps(caps, 'caps');
    } catch (error) {
      throw new AgentError('invalidConfiguration', (error as Error).message);
    }
  }
  const host = options.host ?? hostname();
  const identity: WorkerIdentity = {
    id: options.id ?? `${host}-${process.pid}-${uuidV7().slice(-8)}`,
    host,
    pid: process.pid,
  };
  const stopping = new AbortController();
  if (options.signal?.aborted === true) stopping.abort();
  options.signal?.addEventListener('abort', () => stopping.abort(), { once: true });
  const slots = new Map<string, WorkerSlot>();
  const activity = new Subject<WorkerActivity>();
  reportActivity(activity, options.logger, identity.id);
  const done = runWorker({
    work,
    store,
    agents,
    caps,
    identity,
    concurrency,
    slots,
    activity,
    stopping: stopping.signal,
    graceMs: options.graceMs ?? 30_000,
    pollMs: options.pollMs ?? 1_000,
    crowd: { crowded: false },
  }).finally(() => activity.complete());
  return {
    identity,
    runs: () => [...slots.keys()],
    activity$: activity.asObservable(),
    stop: () => {
      stopping.abort();
      return done;
    },
    done,
    // Awaiting the handle awaits the worker: `await createWorker({ signal })` keeps working.
    then: (onFulfilled, onRejected) => done.then(onFulfilled, onRejected),
  };
}

/** What the worker's loop works with. */
interface WorkerLoop {
  readonly work: WorkIndex;
  readonly store: EventStore;
  readonly agents: WorkerAgents;
  readonly caps: Readonly<Record<string, number | null>> | undefined;
  readonly identity: WorkerIdentity;
  readonly concurrency: number;
  readonly slots: Map<string, WorkerSlot>;
  readonly activity: Subject<WorkerActivity>;
  readonly stopping: AbortSignal;
  readonly graceMs: number;
  readonly pollMs: number;
  /** Whether other workers take runs of this store too: seen live, or a race lost to one. */
  readonly crowd: { crowded: boolean };
}

async function runWorker(loop: WorkerLoop): Promise<void> {
  const { work, identity, slots, stopping, pollMs } = loop;
  const names = Object.keys(loop.agents);
  const heartbeat = (): Promise<void> =>
    work.heartbeat({ ...identity, runs: [...slots.keys()], agents: names });
  const unserved = new Set<string>();
  let lookedForUnserved = -Infinity;
  // Polls back off while nothing is found or the store cannot be reached, from pollMs up to
  // 8 × pollMs; a store that wakes its waiters (PostgreSQL's NOTIFY, SQLite's data_version)
  // ends a wait at once, and a run that ends ends it too.
  let wait = pollMs;
  await publishCaps(work, loop.caps, loop.activity);
  await heartbeat();
  while (!stopping.aborted) {
    const wake = new AbortController();
    const onStop = (): void => wake.abort();
    stopping.addEventListener('abort', onStop, { once: true });
    try {
      const started = await findAndStart(loop, names, () => wake.abort());
      wait = started > 0 ? pollMs : Math.min(wait * 2, pollMs * 8);
      if (performance.now() - lookedForUnserved >= UNSERVED_EVERY_MS) {
        lookedForUnserved = performance.now();
        await reportUnserved(loop, names, unserved);
        const live = await work.listWorkers({ withinMs: pollMs * 10 });
        loop.crowd.crowded = live.some((worker) => worker.id !== identity.id);
      }
      await heartbeat();
      if (!stopping.aborted) await work.waitForWork(wait, wake.signal);
    } catch (error) {
      loop.activity.next({
        kind: 'storeFailed',
        message: `the worker could not reach the store: ${describeThrown(error)}`,
      });
      wait = Math.min(wait * 2, pollMs * 8);
      if (!stopping.aborted) await sleep(wait, wake.signal);
    } finally {
      stopping.removeEventListener('abort', onStop);
    }
  }
  await shutDownSlots(slots, loop.graceMs, identity, loop.activity);
  await work.retire(identity.id).catch(() => undefined);
}

/** Looks for as much work as the free slots take, and starts each item (SPEC WRK-2). */
async function findAndStart(loop: WorkerLoop, names: readonly string[], wake: () => void) {
  const { work, slots, concurrency } = loop;
  const free = concurrency - slots.size;
  // A worker whose slots are full polls at its pace: the runs it holds are its work.
  if (free <= 0) return 1;
  let started = 0;
  // The store's caps hold an agent at its cap back (WRK-10): no work of it is listed.
  const found = await work.findWork({
    // Streams this worker holds may be listed too (their lease lapsed meanwhile): ask for them.
    limit: (loop.crowd.crowded ? free * SPREAD : free) + slots.size,
    agents: names,
  });
  const items = loop.crowd.crowded ? pickSpread(found, free, slots) : found;
  for (const item of items) {
    if (slots.size >= concurrency) break;
    const make = item.agent === undefined ? undefined : loop.agents[item.agent];
    if (make === undefined || item.agent === undefined || slots.has(item.streamId)) continue;
    try {
      const agent = await make(item.streamId)
        .store(loop.store)
        .streamId(item.streamId)
        .name(item.agent)
        .build();
      const slot = startSlot(agent, { ...item, agent: item.agent }, loop.identity, loop.activity);
      slots.set(item.streamId, slot);
      void slot.done.then(() => {
        slots.delete(item.streamId);
        // Another process took the run (or held it): this worker is not alone.
        if (slot.lost) loop.crowd.crowded = true;
        wake();
      });
      started += 1;
    } catch (error) {
      loop.activity.next({
        kind: 'failed',
        streamId: item.streamId,
        message: `could not start the work: ${describeThrown(error)}`,
      });
    }
  }
  return started;
}

/**
 * `free` of the found streams this worker does not hold, drawn at random, oldest first (SPREAD).
 * The oldest stays among the ones found until some worker takes it.
 */
function pickSpread(
  found: readonly WorkItem[],
  free: number,
  slots: ReadonlyMap<string, WorkerSlot>,
): WorkItem[] {
  const open = found.filter((item) => !slots.has(item.streamId));
  const picked = new Set<WorkItem>();
  while (picked.size < Math.min(free, open.length))
    picked.add(open[Math.floor(Math.random() * open.length)] as WorkItem);
  return open.filter((item) => picked.has(item));
}

/** Reports, once each, streams that need work under an agent name this worker lacks (WRK-9). */
async function reportUnserved(loop: WorkerLoop, names: readonly string[], seen: Set<string>) {
  const items = await loop.work.unservedWork({ limit: 100, agents: names });
  for (const item of items) {
    const key = `${item.streamId}\u0000${item.agent ?? ''}`;
    if (seen.has(key)) continue;
    seen.add(key);
    loop.activity.next({
      kind: 'unserved',
      streamId: item.streamId,
      ...(item.agent === undefined ? {} : { agent: item.agent }),
    });
  }
}

/** Resolves after `ms`, or at once when `signal` aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    if (signal.aborted) done();
    else signal.addEventListener('abort', done, { once: true });
  });
}
