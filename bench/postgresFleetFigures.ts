import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { requestRun } from '@agentlog/core';
import { createPostgresEventStore } from '@agentlog/store/postgres';
import { fleetAgentNames, fleetToolCalls } from './fleetAgents.js';
import type { FleetChildReport } from './fleetChild.js';
import { decisionLatency } from './decisionLatency.js';
import { postgresServerCpu } from './postgresServerCpu.js';

/** How many runs, workers and lanes the fleet section runs. */
export interface FleetSettings {
  readonly runs: number;
  /** Worker processes of each row; 0 is the baseline, one process without workers. */
  readonly workerCounts: readonly number[];
  /** Runs each worker process holds at once, and lanes of the baseline. */
  readonly concurrency: number;
  /** Approval-gated runs of the decision-latency scenario. */
  readonly decisions: number;
}

/**
 * The full section (`--quick`: 100 runs, 20 decisions). For a closer look at one row:
 * `--runs=N` and `--workers=0,1,4` (0: the baseline; without 0, no decision latency either).
 */
export function fleetSettings(quick: boolean, args: readonly string[] = []): FleetSettings {
  const option = (name: string): string | undefined =>
    args.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3);
  const runs = option('runs');
  const workers = option('workers');
  return {
    runs: runs === undefined ? (quick ? 100 : 1_000) : Number(runs),
    workerCounts: workers === undefined ? [0, 1, 2, 4] : workers.split(',').map(Number),
    concurrency: 8,
    decisions: quick ? 20 : 100,
  };
}

const child = fileURLToPath(new URL('./fleetChild.js', import.meta.url));
const stepsPerRun = fleetToolCalls + 1;

/** One row of the table: what one configuration did. */
interface FleetRow {
  readonly label: string;
  readonly seconds: number;
  readonly steps: number;
  readonly clientMs: number;
  readonly serverMs: number;
  readonly lostRaces: number;
}

/**
 * The PostgreSQL fleet (issue 28): `runs` requested runs of 10 steps (a model that answers after
 * 20 ms, 9 tool calls then text) taken by 1, 2 and 4 worker processes, against the same runs in
 * one process without workers; CPU per step of the processes and of the server; and the time from
 * a recorded decision to the worker's next event on that stream. Returns the table's lines.
 */
export async function postgresFleetFigures(
  url: string,
  settings: FleetSettings,
): Promise<string[]> {
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    const serverCpu = await postgresServerCpu(admin);
    const rows: FleetRow[] = [];
    const schema = (): string => `agentlog_fleet_${randomBytes(4).toString('hex')}`;
    for (const workers of settings.workerCounts)
      rows.push(await measure(admin, serverCpu, url, schema(), workers, settings));
    if (!settings.workerCounts.includes(0)) return table(rows, serverCpu !== undefined);
    const latency = await decisionLatency(admin, url, schema(), settings.decisions, spawn);
    return [...table(rows, serverCpu !== undefined), '', ...latency];
  } finally {
    await admin.end();
  }
}

/** Forks a fleet child and resolves once it said it is ready. */
export async function spawn(args: readonly string[]): Promise<ChildProcess> {
  const process = fork(child, args, { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  await nextMessage(process);
  return process;
}

/** The next IPC message of `process`; rejects if it exits first. */
export function nextMessage<T>(process: ChildProcess): Promise<T> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null) =>
      reject(new Error(`a fleet child exited with ${String(code)} before it answered`));
    process.once('exit', onExit);
    process.once('message', (message: T) => {
      process.off('exit', onExit);
      resolve(message);
    });
  });
}

async function measure(
  admin: pg.Client,
  serverCpu: (() => number) | undefined,
  url: string,
  schema: string,
  workers: number,
  settings: FleetSettings,
): Promise<FleetRow> {
  const { runs, concurrency } = settings;
  const store = createPostgresEventStore({ connectionString: url, schema });
  try {
    if (workers > 0) {
      for (let run = 1; run <= runs; run += 1) {
        await requestRun(store, {
          streamId: `run-${run}`,
          agent: fleetAgentNames.plain,
          input: 'go',
        });
      }
    } else await store.listStreams();
    const children = await Promise.all(
      workers === 0
        ? [spawn(['direct', url, schema, String(concurrency), String(runs)])]
        : Array.from({ length: workers }, () =>
            spawn(['worker', url, schema, String(concurrency)]),
          ),
    );
    const serverBefore = serverCpu?.() ?? Number.NaN;
    const start = performance.now();
    for (const process of children) process.send('go');
    if (workers === 0) await nextMessage(children[0] as ChildProcess);
    else await allIdle(admin, schema, runs);
    const seconds = (performance.now() - start) / 1_000;
    const serverMs = (serverCpu?.() ?? Number.NaN) - serverBefore;
    const reports = await Promise.all(
      children.map((process) => {
        const report = nextMessage<FleetChildReport>(process);
        process.send('stop');
        return report;
      }),
    );
    const steps = reports.reduce((sum, report) => sum + report.steps, 0);
    if (steps !== runs * stepsPerRun)
      throw new Error(`the fleet ran ${steps} steps, not ${runs * stepsPerRun}`);
    const clientMs = reports.reduce((sum, report) => sum + report.cpuMicros, 0) / 1_000;
    const lostRaces = reports.reduce((sum, report) => sum + report.lostRaces, 0);
    const label = workers === 0 ? `1 process, no workers (${concurrency} lanes)` : String(workers);
    return { label, seconds, steps, clientMs, serverMs, lostRaces };
  } finally {
    await store.close();
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  }
}

/** Resolves once every requested run of the schema ended (its work row idle), polling. */
async function allIdle(admin: pg.Client, schema: string, runs: number): Promise<void> {
  for (;;) {
    const { rows } = await admin.query<{ n: string }>(
      `SELECT count(*) AS n FROM ${schema}.work WHERE status = 'idle'`,
    );
    if (Number(rows[0]?.n) >= runs) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function table(rows: readonly FleetRow[], server: boolean): string[] {
  const ms = (value: number) => (server || !Number.isNaN(value) ? value.toFixed(2) : 'n/a');
  return [
    '| workers | runs/s | steps/s | CPU per step, client | CPU per step, server | races lost |',
    '| --- | --- | --- | --- | --- | --- |',
    ...rows.map(
      (row) =>
        `| ${row.label} | ${(row.steps / stepsPerRun / row.seconds).toFixed(1)} | ` +
        `${(row.steps / row.seconds).toFixed(0)} | ${ms(row.clientMs / row.steps)} ms | ` +
        `${ms(row.serverMs / row.steps)} ms | ${row.lostRaces} |`,
    ),
  ];
}
