import type { ChildProcess } from 'node:child_process';
import type pg from 'pg';
import { recordDecision, requestRun, ToolFeedback, type StreamEvent } from '@agentlog/core';
import { createPostgresEventStore } from '@agentlog/store/postgres';
import { fleetAgentNames } from './fleetAgents.js';
import type { FleetChildReport } from './fleetChild.js';

/** Worker processes of the decision scenario, and how many runs each holds at once. */
const workers = 2;
const concurrency = 8;

/**
 * Decision to next event on PostgreSQL (SPEC WRK-2): `runs` approval-gated runs are requested and
 * run by two worker processes until each waits for a person; then the decisions are recorded one
 * at a time (`recordDecision`), each once the run before ended, and a worker continues the run.
 * The figure of a run is the time from the decision's event to the next event of the stream (the
 * worker's `RunStarted`), by their time stamps: both come from this machine's clock. Returns the
 * p50/p99 line.
 */
export async function decisionLatency(
  admin: pg.Client,
  url: string,
  schema: string,
  runs: number,
  spawn: (args: readonly string[]) => Promise<ChildProcess>,
): Promise<string[]> {
  const store = createPostgresEventStore({ connectionString: url, schema });
  const children: ChildProcess[] = [];
  try {
    await store.listStreams();
    for (let worker = 0; worker < workers; worker += 1)
      children.push(await spawn(['worker', url, schema, String(concurrency)]));
    for (const process of children) process.send('go');
    const streams = Array.from({ length: runs }, (_, index) => `gated-${index + 1}`);
    for (const streamId of streams)
      await requestRun(store, { streamId, agent: fleetAgentNames.gated, input: 'deploy it' });
    await until(admin, `SELECT count(*) = $1 AS ok FROM ${schema}.work WHERE status = 'waiting'`, [
      runs,
    ]);
    const latencies: number[] = [];
    for (const streamId of streams) {
      await recordDecision(store, streamId, 'call-1', ToolFeedback.approved(), { by: 'bench' });
      await until(admin, `SELECT status = 'idle' AS ok FROM ${schema}.work WHERE stream_id = $1`, [
        streamId,
      ]);
      latencies.push(decisionToNext(await store.readStream(streamId)));
    }
    latencies.sort((a, b) => a - b);
    const at = (share: number) => latencies[Math.min(runs - 1, Math.ceil(runs * share) - 1)] ?? 0;
    return [
      `Decision to next event (${runs} approval-gated runs, ${workers} worker processes): ` +
        `p50 ${at(0.5).toFixed(0)} ms, p99 ${at(0.99).toFixed(0)} ms, max ${at(1).toFixed(0)} ms`,
    ];
  } finally {
    await Promise.all(
      children.map(
        (process) =>
          new Promise<FleetChildReport>((resolve) => {
            process.once('message', resolve);
            process.send('stop');
          }),
      ),
    );
    await store.close();
    await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  }
}

/** Ms from the stream's decision (`FeedbackReceived`) to the event after it. */
function decisionToNext(events: readonly StreamEvent[]): number {
  const index = events.findIndex((event) => event.type === 'FeedbackReceived');
  const decided = events[index];
  const next = events[index + 1];
  if (decided === undefined || next === undefined)
    throw new Error('a gated run has no decision, or nothing after it');
  return Date.parse(next.metadata.at) - Date.parse(decided.metadata.at);
}

/** Polls `sql` (one row, column ok) every 2 ms until it is true. */
async function until(admin: pg.Client, sql: string, values: unknown[]): Promise<void> {
  for (;;) {
    const { rows } = await admin.query<{ ok: boolean }>(sql, values);
    if (rows[0]?.ok === true) return;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
}
