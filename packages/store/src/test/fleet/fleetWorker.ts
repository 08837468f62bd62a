// One worker process of the fleet's chaos test (fleetChaos.test.ts): it runs `createWorker` on the
// shared store with the fleet's agent (fleetScenario.ts) until SIGTERM aborts its signal, or until
// the test kills it with SIGKILL, stops it with SIGSTOP, or runs it under faketime. What it does
// goes to the logs of its folder (appends, effects, pending charges) and, as note lines, to its
// stderr: its start, every warning the worker logs (a failed run, a lost lease, a claim that met a
// live run: RunOwnedError `runOwned`, LeaseLostError `leaseLost`), and every charge it withheld.
import { join } from 'node:path';
import { Agent, createWorker, type EventStore } from '@agentlog/core';
import {
  agentName,
  chargeModel,
  chargeTool,
  loggingStore,
  monotonicMs,
  notePrefix,
  type WorkerNote,
} from './fleetScenario.js';

/** What the test gives a worker, as one JSON argument. */
export interface FleetWorkerOptions {
  readonly kind: 'sqlite' | 'postgres';
  /** The SQLite file, or the PostgreSQL URL. */
  readonly location: string;
  readonly schema?: string;
  /** The folder of the logs. */
  readonly dir: string;
  /** The worker's slot in the fleet (`w1` …); a restarted worker keeps its slot, not its pid. */
  readonly slot: string;
  readonly leaseMs: number;
  readonly concurrency: number;
  readonly pollMs: number;
  /** The test process: a worker whose test process is gone exits. */
  readonly parentPid: number;
}

const options = JSON.parse(process.argv[2] ?? '{}') as FleetWorkerOptions;
const { dir, slot } = options;

function note(entry: WorkerNote): void {
  // A pipe's writes are synchronous on Linux: a note written is a note the test reads, SIGKILL or not.
  process.stderr.write(`${notePrefix}${JSON.stringify(entry)}\n`);
}

note({ kind: 'started', slot, pid: process.pid, at: monotonicMs() });

// Only the adapter in use is loaded (not the store index, which loads the KurrentDB client too).
const store: EventStore & { close(): unknown } =
  options.kind === 'sqlite'
    ? (await import('../../sqlite/createSqliteEventStore.js')).createSqliteEventStore({
        path: options.location,
      })
    : (await import('../../postgres/createPostgresEventStore.js')).createPostgresEventStore({
        connectionString: options.location,
        schema: options.schema ?? 'agentlog',
      });
const logged = loggingStore(store, join(dir, 'appends.jsonl'), slot);

const charge = chargeTool({
  effectsFile: join(dir, 'effects.jsonl'),
  pendingFile: join(dir, 'pending.jsonl'),
  leaseMs: options.leaseMs,
  onWithheld: (streamId, reason) =>
    note({ kind: 'withheld', slot, pid: process.pid, at: monotonicMs(), streamId, reason }),
});

const shutdown = new AbortController();
process.once('SIGTERM', () => shutdown.abort());
// Never outlive the test: a worker whose test process is gone (or that ran for 10 minutes) exits.
const watchdog = setInterval(() => {
  try {
    process.kill(options.parentPid, 0);
  } catch {
    process.exit(3);
  }
}, 1_000);
const lifetime = setTimeout(() => process.exit(4), 10 * 60_000);

/** The code of a logged error: from its details, else from its message (today's texts too). */
function codeOf(message: string, details: unknown): string | undefined {
  const fields = (details ?? {}) as { code?: unknown; error?: { code?: unknown } };
  if (typeof fields.code === 'string') return fields.code;
  if (typeof fields.error?.code === 'string') return fields.error.code;
  if (/runOwned|RunOwnedError/.test(message)) return 'runOwned';
  if (/leaseLost|LeaseLostError|lost the run's lease/.test(message)) return 'leaseLost';
  return undefined;
}

const logger = {
  warn: (message: string, details?: unknown) => {
    const streamId = (details as { streamId?: unknown } | undefined)?.streamId;
    const code = codeOf(message, details);
    note({
      kind: 'warn',
      slot,
      pid: process.pid,
      at: monotonicMs(),
      message,
      ...(typeof streamId === 'string' ? { streamId } : {}),
      ...(code === undefined ? {} : { code }),
    });
  },
};

const agents = {
  [agentName]: () =>
    Agent.builder().llm(chargeModel).tools([charge]).runLease(options.leaseMs).logger(logger),
};

// A worker started while the store cannot be reached (the PostgreSQL restart) fails its first
// heartbeat: it tries again until the store answers or it is told to stop.
while (!shutdown.signal.aborted) {
  try {
    await createWorker({
      store: logged,
      agents,
      concurrency: options.concurrency,
      id: `${slot}-${process.pid}`,
      signal: shutdown.signal,
      logger,
      pollMs: options.pollMs,
      graceMs: 5_000,
    });
    break;
  } catch (error) {
    note({
      kind: 'workerFailed',
      slot,
      pid: process.pid,
      at: monotonicMs(),
      message: error instanceof Error ? error.message : String(error),
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}
clearInterval(watchdog);
clearTimeout(lifetime);
await Promise.resolve(store.close());
process.exit(0);
