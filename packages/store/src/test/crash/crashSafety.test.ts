// SPEC RES-5, with real processes: a worker runs the approval scenario of crashScenario.ts and
// SIGKILLs itself at a kill point (every event boundary of an uninterrupted run, inside each tool
// after its side effect, and a sample of second kills during the resume); a last worker finishes
// the run. The parent then checks that no stored event was lost, the stream folds, the run
// completed, each side effect ran at most once per approval, and the history is the one of an
// uninterrupted run (TOOL-7's re-ask of an ambiguous call aside).
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { foldStream, type AgentState, type StreamEvent } from '@agentlog/core';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresEventStore } from '../../postgres/createPostgresEventStore.js';
import { createSqliteEventStore } from '../../sqlite/createSqliteEventStore.js';
import {
  crashToolNames,
  crashTools,
  historyShape,
  type EffectEntry,
  type KillPoint,
  type StoredEntry,
  type WorkerReport,
} from './crashScenario.js';

const worker = join(import.meta.dirname, 'crashWorker.ts');
const postgresUrl = process.env.AGENTLOG_POSTGRES_URL;
const postgresSkip =
  postgresUrl === undefined || postgresUrl === ''
    ? 'AGENTLOG_POSTGRES_URL is not set; start a server with `eval "$(scripts/postgres.sh start)"`'
    : undefined;
/** Cases run at once: each forks its workers one after another. */
const concurrency = 2;
const workerTimeoutMs = 30_000;

/** Where a case's events live: one SQLite file per case, or one PostgreSQL stream per case. */
interface Target {
  readonly label: 'SQLite' | 'PostgreSQL';
  /** The worker's store arguments and environment for a case. */
  args(caseDir: string): { kind: string; location: string; env: NodeJS.ProcessEnv };
  /** Reads a case's stream in the parent. */
  read(caseDir: string, streamId: string): Promise<StreamEvent[]>;
  close(): Promise<void>;
}

function sqliteTarget(): Target {
  return {
    label: 'SQLite',
    args: (caseDir) => ({ kind: 'sqlite', location: join(caseDir, 'agentlog.db'), env: {} }),
    read: async (caseDir, streamId) => {
      const store = createSqliteEventStore({ path: join(caseDir, 'agentlog.db') });
      try {
        return await store.readStream(streamId);
      } finally {
        store.close();
      }
    },
    close: () => Promise.resolve(),
  };
}

async function postgresTarget(url: string): Promise<Target> {
  const schema = `agentlog_crash_${randomBytes(4).toString('hex')}`;
  const store = createPostgresEventStore({ connectionString: url, schema });
  // The schema exists before the first worker starts.
  await store.listStreams();
  return {
    label: 'PostgreSQL',
    args: () => ({ kind: 'postgres', location: url, env: { CRASH_SCHEMA: schema } }),
    read: (_caseDir, streamId) => store.readStream(streamId),
    close: async () => {
      await store.close();
      const pool = new pg.Pool({ connectionString: url });
      await pool.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).finally(() => pool.end());
    },
  };
}

interface WorkerRun {
  readonly name: string;
  readonly killPoint?: KillPoint;
  readonly killed: boolean;
  readonly exit: string;
  readonly report?: WorkerReport;
}

/** Forks one worker and waits for it to exit, killed or not. */
function runWorker(
  target: Target,
  caseDir: string,
  streamId: string,
  name: string,
  killPoint?: KillPoint,
): Promise<WorkerRun> {
  const { kind, location, env } = target.args(caseDir);
  const child = fork(
    worker,
    [kind, location, streamId, caseDir, name, ...(killPoint === undefined ? [] : [killPoint])],
    {
      execArgv: ['--conditions=source', '--import', 'tsx'],
      env: { ...process.env, ...env },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  let report: WorkerReport | undefined;
  child.on('message', (message: WorkerReport) => {
    report = message;
  });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
  }, workerTimeoutMs);
  return new Promise((resolve) => {
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({
        name,
        ...(killPoint === undefined ? {} : { killPoint }),
        killed: signal === 'SIGKILL' && !timedOut && report === undefined,
        exit: timedOut
          ? `timed out after ${workerTimeoutMs} ms`
          : signal === null
            ? `exit ${String(code)}`
            : signal,
        ...(report === undefined ? {} : { report }),
      });
    });
  });
}

async function readLines<T>(file: string): Promise<T[]> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as T);
}

interface CrashCase {
  readonly name: string;
  readonly group: 'boundary' | 'tool' | 'double';
  /** The kill point of each killed worker, in order; a last worker then finishes the run. */
  readonly kills: readonly KillPoint[];
}

interface Uninterrupted {
  readonly events: readonly StreamEvent[];
  readonly history: unknown[];
  readonly approvals: ReadonlyMap<string, number>;
}

interface CaseResult {
  readonly crashCase: CrashCase;
  readonly workers: readonly WorkerRun[];
  readonly events: readonly StreamEvent[];
  readonly effects: readonly EffectEntry[];
  /** Stored events a worker reported that the stream does not hold (or holds other events at). */
  readonly lost: readonly StoredEntry[];
  readonly gap?: string;
  readonly foldError?: string;
  readonly completed: boolean;
  /** Calls whose side effect ran more often than its approvals allow. */
  readonly doubles: readonly string[];
  /** How many runs of those side effects were beyond what the approvals allow. */
  readonly extraEffects: number;
  readonly idempotentReruns: number;
  readonly reAsks: number;
  /** How the history differs from the uninterrupted one, beyond the documented re-ask. */
  readonly deviations: readonly string[];
  /** Kill points a worker never reached (it finished instead): the case tested less than planned. */
  readonly missedKills: readonly string[];
}

function approvalsOf(events: readonly StreamEvent[]): Map<string, number> {
  const approvals = new Map<string, number>();
  for (const event of events) {
    const data = event.data as { toolCallId?: string; feedback?: { kind?: string } };
    if (event.type !== 'FeedbackReceived' || data.feedback?.kind !== 'approved') continue;
    const id = data.toolCallId ?? '';
    approvals.set(id, (approvals.get(id) ?? 0) + 1);
  }
  return approvals;
}

function ambiguousAsksOf(events: readonly StreamEvent[]): Map<string, number> {
  const asks = new Map<string, number>();
  for (const event of events) {
    const data = event.data as { toolCall?: { id?: string }; ambiguous?: boolean };
    if (event.type !== 'FeedbackRequested' || data.ambiguous !== true) continue;
    const id = data.toolCall?.id ?? '';
    asks.set(id, (asks.get(id) ?? 0) + 1);
  }
  return asks;
}

/** One line per event, with what tells it apart: how failures are reported. */
function describeEvent(event: StreamEvent): string {
  const data = event.data as Record<string, unknown>;
  const call = (data.toolCall as { id?: string; name?: string } | undefined) ?? undefined;
  const parts = [
    `r${event.metadata.revision}`,
    event.metadata.eventId,
    event.type,
    ...(call === undefined ? [] : [`${call.name ?? ''}(${call.id ?? ''})`]),
    ...(typeof data.toolCallId === 'string' ? [data.toolCallId] : []),
    ...(data.ambiguous === true ? ['ambiguous'] : []),
    ...(typeof data.mode === 'string' ? [data.mode] : []),
    ...(data.feedback === undefined ? [] : [(data.feedback as { kind: string }).kind]),
    ...(data.reason === undefined ? [] : [JSON.stringify(data.reason).slice(0, 120)]),
    ...(typeof data.code === 'string' ? [data.code] : []),
  ];
  return parts.join(' ');
}

async function runCase(
  target: Target,
  root: string,
  crashCase: CrashCase,
  uninterrupted: Uninterrupted | undefined,
): Promise<CaseResult> {
  const caseDir = join(root, crashCase.name);
  await mkdir(caseDir, { recursive: true });
  await writeFile(join(caseDir, 'effects.jsonl'), '');
  await writeFile(join(caseDir, 'stored.jsonl'), '');
  const streamId = `crash-${crashCase.name}`;
  const workers: WorkerRun[] = [];
  for (const [index, killPoint] of crashCase.kills.entries()) {
    workers.push(await runWorker(target, caseDir, streamId, `w${index + 1}`, killPoint));
  }
  const last = await runWorker(target, caseDir, streamId, `w${crashCase.kills.length + 1}`);
  workers.push(last);

  const events = await target.read(caseDir, streamId);
  const stored = await readLines<StoredEntry>(join(caseDir, 'stored.jsonl'));
  const effects = await readLines<EffectEntry>(join(caseDir, 'effects.jsonl'));

  // 1. No event lost: contiguous revisions, and every event an append returned is still there.
  const gapAt = events.findIndex((event, index) => event.metadata.revision !== index);
  const gap =
    gapAt === -1
      ? undefined
      : `revision ${String(events[gapAt]?.metadata.revision)} at position ${gapAt}`;
  const lost = stored.filter(
    (entry) =>
      events.find((event) => event.metadata.revision === entry.revision)?.metadata.eventId !==
      entry.eventId,
  );

  // 2. The stream folds.
  let state: AgentState | undefined;
  let foldError: string | undefined;
  try {
    state = foldStream(events).state;
  } catch (error) {
    foldError = error instanceof Error ? error.message : String(error);
  }

  // 3. The run completes.
  const completed =
    last.report?.ok === true &&
    state?.status === 'stopped' &&
    state.stopReason?.kind === 'requestedByTool';

  // 4. Each side effect at most once per approval (a call that needs none runs once for free).
  const approvals = approvalsOf(events);
  const reAskCounts = ambiguousAsksOf(events);
  const doubles: string[] = [];
  let extraEffects = 0;
  let idempotentReruns = 0;
  const byCall = new Map<string, EffectEntry[]>();
  for (const effect of effects) {
    byCall.set(effect.callId, [...(byCall.get(effect.callId) ?? []), effect]);
  }
  for (const [callId, runs] of byCall) {
    const tool = crashTools[runs[0]?.tool ?? 'lookup'];
    if (tool.idempotent) {
      idempotentReruns += runs.length - 1;
      continue;
    }
    const allowed = (tool.gated ? 0 : 1) + (approvals.get(callId) ?? 0);
    if (runs.length > allowed) {
      extraEffects += runs.length - allowed;
      doubles.push(
        `${tool.name}(${callId}) ran ${runs.length} times (${runs.map((run) => run.worker).join(', ')}) with ${approvals.get(callId) ?? 0} approval(s)`,
      );
    }
  }

  // 5. The history of an uninterrupted run; the only extra events allowed are the re-asks.
  const deviations: string[] = [];
  if (uninterrupted !== undefined && state !== undefined) {
    const history = historyShape(state.history);
    if (!isDeepStrictEqual(history, uninterrupted.history)) {
      deviations.push(
        `history differs: ${JSON.stringify(history)} instead of ${JSON.stringify(uninterrupted.history)}`,
      );
    }
    for (const [callId, count] of approvals) {
      const expected = (uninterrupted.approvals.get(callId) ?? 0) + (reAskCounts.get(callId) ?? 0);
      if (count > expected) {
        deviations.push(`${callId} approved ${count} times, but asked ${expected} times`);
      }
    }
    for (const event of events) {
      if (event.type === 'WarningRecorded') {
        deviations.push(`warning ${(event.data as { message: string }).message}`);
      }
    }
    for (const name of crashToolNames) {
      const calls = new Set(
        effects.filter((effect) => effect.tool === name).map((effect) => effect.callId),
      );
      if (calls.size > 1) deviations.push(`${name} ran for ${calls.size} different calls`);
    }
  }

  const missedKills = workers
    .filter((run) => run.killPoint !== undefined && !run.killed)
    .map((run) => `${run.name} ${String(run.killPoint)}: ${run.exit}`);

  return {
    crashCase,
    workers,
    events,
    effects,
    lost,
    ...(gap === undefined ? {} : { gap }),
    ...(foldError === undefined ? {} : { foldError }),
    completed,
    doubles,
    extraEffects,
    idempotentReruns,
    reAsks: [...reAskCounts.values()].reduce((sum, count) => sum + count, 0),
    deviations,
    missedKills,
  };
}

async function inBatches<T, R>(
  items: readonly T[],
  size: number,
  work: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(size, items.length) }, async () => {
    while (next < items.length) {
      const index = next;
      next += 1;
      results[index] = await work(items[index] as T);
    }
  });
  await Promise.all(lanes);
  return results;
}

interface Summary {
  readonly store: string;
  readonly cases: number;
  readonly eventsLost: number;
  readonly unfoldableStreams: number;
  readonly unresumableRuns: number;
  /** Runs of non-idempotent side effects beyond their approvals. */
  readonly doubleEffects: number;
  readonly historiesDifferingBeyondReAsk: number;
  readonly missedKillPoints: number;
  /** Allowed, reported: re-runs of the idempotent tool, and TOOL-7 re-asks. */
  readonly idempotentReruns: number;
  readonly ambiguousReAsks: number;
}

function summarize(store: string, results: readonly CaseResult[]): Summary {
  const count = (test: (result: CaseResult) => boolean) => results.filter(test).length;
  return {
    store,
    cases: results.length,
    eventsLost: results.reduce((sum, result) => sum + result.lost.length, 0),
    unfoldableStreams: count(
      (result) => result.foldError !== undefined || result.gap !== undefined,
    ),
    unresumableRuns: count((result) => !result.completed),
    doubleEffects: results.reduce((sum, result) => sum + result.extraEffects, 0),
    historiesDifferingBeyondReAsk: count((result) => result.deviations.length > 0),
    missedKillPoints: results.reduce((sum, result) => sum + result.missedKills.length, 0),
    idempotentReruns: results.reduce((sum, result) => sum + result.idempotentReruns, 0),
    ambiguousReAsks: results.reduce((sum, result) => sum + result.reAsks, 0),
  };
}

const zeroFailures = {
  eventsLost: 0,
  unfoldableStreams: 0,
  unresumableRuns: 0,
  doubleEffects: 0,
  historiesDifferingBeyondReAsk: 0,
  missedKillPoints: 0,
};

function failed(result: CaseResult): boolean {
  return (
    result.lost.length > 0 ||
    result.gap !== undefined ||
    result.foldError !== undefined ||
    !result.completed ||
    result.doubles.length > 0 ||
    result.deviations.length > 0 ||
    result.missedKills.length > 0
  );
}

/** What a failing case did, for the core engineer: kill points, workers, problems, the stream. */
function failureReport(result: CaseResult): string {
  const problems = [
    ...result.lost.map(
      (entry) => `lost: ${entry.worker} stored r${entry.revision} ${entry.eventId} ${entry.type}`,
    ),
    ...(result.gap === undefined ? [] : [`gap: ${result.gap}`]),
    ...(result.foldError === undefined ? [] : [`does not fold: ${result.foldError}`]),
    ...(result.completed ? [] : ['the run did not complete with requestedByTool']),
    ...result.doubles.map((double) => `double effect: ${double}`),
    ...result.deviations.map((deviation) => `deviation: ${deviation}`),
    ...result.missedKills.map((missed) => `kill point not reached: ${missed}`),
  ];
  const effects = crashToolNames.map(
    (name) =>
      `${name} ${result.effects
        .filter((effect) => effect.tool === name)
        .map((effect) => `${effect.callId}@${effect.worker}`)
        .join(' ')}`,
  );
  const workers = result.workers.map(
    (run) =>
      `${run.name} ${run.killPoint ?? '(no kill point)'}: ${run.killed ? 'killed' : run.exit}` +
      (run.report === undefined
        ? ''
        : `; ${run.report.ok ? 'finished' : `FAILED ${run.report.error ?? ''}`}; ${run.report.trail.join(' | ')}`),
  );
  return [
    `case ${result.crashCase.name} (kills: ${result.crashCase.kills.join(', ')})`,
    ...problems.map((line) => `  ${line}`),
    ...workers.map((line) => `  ${line}`),
    `  side effects: ${effects.join('; ')}`,
    '  stream:',
    ...result.events.map((event) => `    ${describeEvent(event)}`),
  ].join('\n');
}

/** Fails with every failing case spelt out; one full report per distinct kind of failure. */
function expectNoFailures(results: readonly CaseResult[], summary: Summary): void {
  const failing = results.filter(failed);
  const seen = new Set<string>();
  const reports: string[] = [];
  for (const result of failing) {
    const signature = JSON.stringify([
      result.lost.length > 0,
      result.completed,
      result.doubles.length,
      result.deviations.map((deviation) => deviation.slice(0, 40)),
      result.missedKills.length,
    ]);
    if (seen.has(signature)) continue;
    seen.add(signature);
    reports.push(failureReport(result));
  }
  const message = [
    `RES-5 on ${summary.store}: ${failing.length} of ${results.length} cases fail: ${failing.map((result) => result.crashCase.name).join(', ')}`,
    ...reports,
  ].join('\n\n');
  expect(summary, message).toMatchObject(zeroFailures);
}

function describeStore(label: Target['label'], open: () => Promise<Target>, skip?: string): void {
  describe.skipIf(skip !== undefined)(
    `RES-5 crash safety with SIGKILLed processes on ${label}${skip === undefined ? '' : ` (skipped: ${skip})`}`,
    () => {
      let target: Target;
      let root: string;
      let uninterrupted: Uninterrupted;
      const all: CaseResult[] = [];

      beforeAll(async () => {
        target = await open();
        root = await mkdtemp(join(tmpdir(), 'agentlog-crash-'));
        const baseline = await runCase(
          target,
          root,
          { name: 'uninterrupted', group: 'boundary', kills: [] },
          undefined,
        );
        if (failed(baseline)) throw new Error(failureReport(baseline));
        // The uninterrupted run performs each side effect once, for the call the model made.
        expect(baseline.effects.map(({ tool, callId }) => `${tool}:${callId}`).sort()).toEqual(
          crashToolNames.map((name) => `${name}:${crashTools[name].callId}`).sort(),
        );
        const state = foldStream(baseline.events).state;
        uninterrupted = {
          events: baseline.events,
          history: historyShape(state.history),
          approvals: approvalsOf(baseline.events),
        };
      }, 60_000);

      afterAll(async () => {
        if (all.length > 0) {
          console.log(`RES-5 summary on ${label}:`, JSON.stringify(summarize(label, all)));
        }
        await target?.close();
        if (root !== undefined) await rm(root, { recursive: true, force: true });
      });

      async function run(cases: readonly CrashCase[]): Promise<Summary> {
        const results = await inBatches(cases, concurrency, (crashCase) =>
          runCase(target, root, crashCase, uninterrupted),
        );
        all.push(...results);
        const summary = summarize(label, results);
        console.log(`RES-5 ${cases[0]?.group ?? ''} kills on ${label}:`, JSON.stringify(summary));
        expectNoFailures(results, summary);
        return summary;
      }

      /** The revision of the first event of `type` in the uninterrupted run (after `after`). */
      function revisionOf(type: string, after = -1): number {
        const event = uninterrupted.events.find(
          (candidate) => candidate.type === type && candidate.metadata.revision > after,
        );
        if (event === undefined) throw new Error(`the uninterrupted run has no ${type}`);
        return event.metadata.revision;
      }

      it(`RES-5 a SIGKILL at every event boundary of an approval run on ${label} loses no event, folds, completes with the uninterrupted history, and runs each side effect at most once per approval`, async () => {
        const summary = await run(
          uninterrupted.events.map((event) => ({
            name: `rev${event.metadata.revision}`,
            group: 'boundary',
            kills: [`rev:${event.metadata.revision}`],
          })),
        );
        expect(summary.cases).toBe(uninterrupted.events.length);
      }, 240_000);

      it(`RES-5 TOOL-7 a SIGKILL inside each tool after its side effect on ${label} loses no event, folds, completes with the uninterrupted history (re-asking ambiguous calls), and runs each side effect at most once per approval`, async () => {
        await run(
          crashToolNames.map((name) => ({
            name: `in-${name}`,
            group: 'tool',
            kills: [`tool:${name}`],
          })),
        );
      }, 120_000);

      it(`RES-5 a second SIGKILL during the resume on ${label} loses no event, folds, completes with the uninterrupted history, and runs each side effect at most once per approval`, async () => {
        const started = revisionOf('ToolCallStarted');
        const waiting = revisionOf('AgentStopped');
        const approved = revisionOf('FeedbackReceived');
        const cases: CrashCase[] = [
          { name: 'in-notify+in-lookup', kills: ['tool:notify', 'tool:lookup'] },
          { name: 'in-notify+append1', kills: ['tool:notify', 'append:1'] },
          { name: 'in-deploy+in-deploy', kills: ['tool:deploy', 'tool:deploy'] },
          { name: `rev${started}+append1`, kills: [`rev:${started}`, 'append:1'] },
          { name: `rev${waiting}+append1`, kills: [`rev:${waiting}`, 'append:1'] },
          { name: `rev${approved}+in-deploy`, kills: [`rev:${approved}`, 'tool:deploy'] },
          { name: 'rev0+append2', kills: ['rev:0', 'append:2'] },
        ].map((crashCase) => ({ ...crashCase, group: 'double' }) as CrashCase);
        await run(cases);
      }, 120_000);
    },
  );
}

describeStore('SQLite', () => Promise.resolve(sqliteTarget()));
describeStore('PostgreSQL', () => postgresTarget(postgresUrl ?? ''), postgresSkip);
