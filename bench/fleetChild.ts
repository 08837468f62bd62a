// A process of the PostgreSQL fleet bench (postgresFleetFigures.ts), driven over IPC:
//   node bench/dist/fleetChild.js worker <url> <schema> <concurrency>
//   node bench/dist/fleetChild.js direct <url> <schema> <concurrency> <runs>
// It opens the store and says { ready }; on "go" it starts counting its CPU and either runs a
// worker (`createWorker`) until "stop", or runs <runs> plain fleet runs itself with `agent.query`
// (the baseline without workers), then says { done }. Then it reports { cpuMicros, steps } and exits.
import { createWorker, type EventStore } from '@agentlog/core';
import { createPostgresEventStore } from '@agentlog/store/postgres';
import { fleetAgents, plainFleetAgent } from './fleetAgents.js';

/** What a fleet child reports when it stops. */
export interface FleetChildReport {
  /** User + system CPU from "go" to the end of its work, in microseconds. */
  readonly cpuMicros: number;
  /** Completions its models answered: the steps it ran. */
  readonly steps: number;
  /**
   * Runs it tried to take that another worker took first: claims the store refused with
   * `RunOwnedError` (the worker reports no activity for them, SPEC WRK-3).
   */
  readonly lostRaces: number;
}

const [mode = '', url = '', schema = '', concurrencyText = '8', runsText = '0'] =
  process.argv.slice(2);
const concurrency = Number(concurrencyText);
const store = createPostgresEventStore({ connectionString: url, schema });
let steps = 0;
let lostRaces = 0;

/** The store as the worker sees it: each claim it refuses because another owner holds the run counts. */
const counting: EventStore = new Proxy(store, {
  get(target, key, receiver) {
    if (key !== 'appendToStream') return Reflect.get(target, key, receiver) as unknown;
    const append: EventStore['appendToStream'] = (streamId, events, options) =>
      target.appendToStream(streamId, events, options).catch((error: unknown) => {
        if (options?.claim !== undefined && (error as { code?: unknown }).code === 'runOwned')
          lostRaces += 1;
        throw error;
      });
    return append;
  },
});
const onCall = (): void => void (steps += 1);
const send = (message: unknown): Promise<void> =>
  new Promise((resolve) => process.send?.(message, () => resolve()));

/** Runs `runs` plain fleet runs on new streams, at most `concurrency` at once. */
async function direct(runs: number): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < runs) {
      next += 1;
      const agent = await plainFleetAgent(onCall).store(store).streamId(`direct-${next}`).build();
      await agent.query('go');
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
}

await store.listStreams();
const controller = new AbortController();
let started: NodeJS.CpuUsage | undefined;
let work: PromiseLike<void> = Promise.resolve();
process.on('message', (message: string) => {
  if (message === 'go') {
    started = process.cpuUsage();
    work =
      mode === 'direct'
        ? direct(Number(runsText)).then(() => send({ done: true }))
        : createWorker({
            store: counting,
            agents: fleetAgents(onCall),
            concurrency,
            signal: controller.signal,
            logger: { warn: (text) => console.error(`[fleet worker] ${text}`) },
          });
  } else if (message === 'stop') {
    controller.abort();
    void work.then(async () => {
      const used = process.cpuUsage(started);
      const report: FleetChildReport = { cpuMicros: used.user + used.system, steps, lostRaces };
      await send(report);
      await store.close();
      process.exit(0);
    });
  }
});
await send({ ready: true });
