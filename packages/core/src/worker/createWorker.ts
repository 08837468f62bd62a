import { hostname } from 'node:os';
import { AgentError } from '../errors/agentError.js';
import { isAgentlogError } from '../errors/agentlogError.js';
import { ConcurrencyError } from '../errors/concurrencyError.js';
import { describeThrown } from '../errors/toolError.js';
import type { WorkerIdentity } from '../events/agentEvent.js';
import type { Logger } from '../api/hooks.js';
import type { EventStore } from '../ports/eventStore.js';
import type { WorkIndex, WorkItem } from '../ports/workIndex.js';
import { uuidV7 } from '../support/uuidV7.js';
import { keepLease } from './keepLease.js';
import type { WorkerAgent, WorkerAgents } from './workerAgent.js';

/** What a worker is given (SPEC WRK-1 … WRK-7). */
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
  /** Aborting it shuts the worker down gracefully (SPEC WRK-5). */
  readonly signal?: AbortSignal;
  /** Where it reports runs that failed and leases it lost. Default: `console.warn`. */
  readonly logger?: Logger;
  /** How long running steps may take to finish once the signal aborted. Default 30 s. */
  readonly graceMs?: number;
  /** How long it waits for work between two looks at the index, at most. Default 1 s. */
  readonly pollMs?: number;
  /** At most this many running streams of an agent name, across all workers. */
  readonly caps?: Readonly<Record<string, number>>;
}

/** One run the worker holds. */
interface Slot {
  readonly agent: WorkerAgent;
  readonly controller: AbortController;
  readonly done: Promise<void>;
  /** The worker aborted it to shut down: it did not end on its own. */
  shutDown: boolean;
  /** Its lease was lost, or another worker took the run: it is not this worker's to release. */
  lost: boolean;
}

const consoleLogger: Logger = {
  warn: (message, details) => console.warn(`[agentlog worker] ${message}`, details ?? ''),
};

/**
 * Runs the registered agents' work from the store's work index (SPEC WRK-1 … WRK-7) until
 * `signal` aborts. It takes a requested run, a run whose every waiting call holds a decision, and
 * a run whose lease lapsed by the store's clock, by appending at the expected revision: of workers
 * racing for one run exactly one advances it (a `ConcurrencyError` tells the others to move on).
 * It renews each run's lease while the run works and aborts a run whose lease it lost. On abort it
 * claims nothing more, lets running runs finish for `graceMs`, aborts the rest, records
 * `RunReleased` for each so another worker continues it at once, and retires; then the promise
 * resolves. A store without a work index is refused.
 */
export async function createWorker(options: WorkerOptions): Promise<void> {
  const { store, agents, signal, caps } = options;
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
  const host = options.host ?? hostname();
  const worker: WorkerIdentity = {
    id: options.id ?? `${host}-${process.pid}-${uuidV7().slice(-8)}`,
    host,
    pid: process.pid,
  };
  const logger = options.logger ?? consoleLogger;
  const graceMs = options.graceMs ?? 30_000;
  const pollMs = options.pollMs ?? 1_000;
  const names = Object.keys(agents);
  const slots = new Map<string, Slot>();
  /** Decided streams whose agent opted out of being continued, at the revision it was seen. */
  const optedOut = new Map<string, number>();
  let wake = new AbortController();

  const heartbeat = (): Promise<void> => work.heartbeat({ ...worker, runs: [...slots.keys()] });

  const start = async (item: WorkItem): Promise<void> => {
    const make = item.agent === undefined ? undefined : agents[item.agent];
    if (make === undefined) return;
    if (item.reason === 'ready' && optedOut.has(item.streamId)) {
      const [last] = await store.readStream(item.streamId, { direction: 'backwards', maxCount: 1 });
      if (last?.metadata.revision === optedOut.get(item.streamId)) return;
      optedOut.delete(item.streamId);
    }
    const agent = await make(item.streamId).store(store).streamId(item.streamId).build();
    if (item.reason === 'ready' && !agent.continuesAfterDecision) {
      optedOut.set(item.streamId, agent.state().revision);
      return;
    }
    if (slots.has(item.streamId)) return;
    const controller = new AbortController();
    const lease = keepLease(work, item.streamId, worker.id, agent.runLeaseMs, controller);
    const claim = agent.events$.subscribe((event) => {
      if (event.type === 'RunStarted' && event.data.worker?.id === worker.id) lease.claimed();
    });
    const slot: Slot = {
      agent,
      controller,
      shutDown: false,
      lost: false,
      done: agent
        .run({
          worker,
          signal: controller.signal,
          ...(item.reason === 'leaseLapsed' ? { leaseLapsed: true } : {}),
        })
        .catch((error: unknown) => {
          if (
            error instanceof ConcurrencyError ||
            controller.signal.reason instanceof ConcurrencyError
          ) {
            // Another worker won the race for the run, or took it over (SPEC WRK-3, WRK-4).
            slot.lost = true;
            if (controller.signal.reason instanceof ConcurrencyError)
              logger.warn(describeThrown(controller.signal.reason), { streamId: item.streamId });
            return;
          }
          if (isAgentlogError(error) && error.code === 'nothingToRun') return;
          if (slot.shutDown) return;
          logger.warn(`the run of stream ${item.streamId} failed: ${describeThrown(error)}`, {
            streamId: item.streamId,
            worker: worker.id,
          });
        })
        .finally(() => {
          lease.stop();
          claim.unsubscribe();
          slots.delete(item.streamId);
          wake.abort();
        }),
    };
    slots.set(item.streamId, slot);
  };

  const release = async (streamId: string, slot: Slot): Promise<void> => {
    if (slot.lost || !slot.shutDown) return;
    try {
      await slot.agent.releaseRun(worker, { reason: 'the worker shut down' });
    } catch (error) {
      logger.warn(`could not release the run of stream ${streamId}: ${describeThrown(error)}`, {
        streamId,
        worker: worker.id,
      });
    }
  };

  const stopping = (): boolean => signal?.aborted === true;
  await heartbeat();
  while (!stopping()) {
    wake = new AbortController();
    const onAbort = (): void => wake.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      await findAndStart(work, slots, optedOut, concurrency, names, caps, start, logger);
      await heartbeat();
      if (!stopping()) await work.waitForWork(pollMs, wake.signal);
    } catch (error) {
      logger.warn(`the worker could not reach the store: ${describeThrown(error)}`, {
        worker: worker.id,
      });
      if (!stopping()) await sleep(pollMs, wake.signal);
    }
    signal?.removeEventListener('abort', onAbort);
  }
  await shutDown(slots, graceMs, release);
  await work.retire(worker.id).catch(() => undefined);
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

/** Looks for as much work as the free slots take, and starts each item (SPEC WRK-2). */
async function findAndStart(
  work: WorkIndex,
  slots: ReadonlyMap<string, Slot>,
  optedOut: ReadonlyMap<string, number>,
  concurrency: number,
  agents: readonly string[],
  caps: Readonly<Record<string, number>> | undefined,
  start: (item: WorkItem) => Promise<void>,
  logger: Logger,
): Promise<void> {
  const free = concurrency - slots.size;
  if (free <= 0) return;
  const items = await work.findWork({
    // Streams held here or skipped for their agent's opt-out may come back: ask for them too.
    limit: free + slots.size + optedOut.size,
    agents,
    ...(caps === undefined ? {} : { caps }),
  });
  for (const item of items) {
    if (slots.size >= concurrency) return;
    if (slots.has(item.streamId)) continue;
    try {
      await start(item);
    } catch (error) {
      logger.warn(`could not start the work on stream ${item.streamId}: ${describeThrown(error)}`, {
        streamId: item.streamId,
      });
    }
  }
}

/**
 * SPEC WRK-5: lets the runs finish for `graceMs`, aborts those still running (a tool that
 * finished keeps its outcome), waits for them, and releases each one it aborted.
 */
async function shutDown(
  slots: Map<string, Slot>,
  graceMs: number,
  release: (streamId: string, slot: Slot) => Promise<void>,
): Promise<void> {
  const held = [...slots.entries()];
  if (held.length === 0) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const grace = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, graceMs);
  });
  await Promise.race([Promise.all(held.map(([, slot]) => slot.done)), grace]);
  clearTimeout(timer);
  for (const [, slot] of held) {
    if (!slots.has(slot.agent.streamId)) continue;
    slot.shutDown = true;
    slot.controller.abort(new Error('the worker is shutting down'));
  }
  await Promise.all(held.map(([, slot]) => slot.done));
  for (const [streamId, slot] of held) await release(streamId, slot);
}
