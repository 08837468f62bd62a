import { join } from 'node:path';
import Database from 'better-sqlite3';
import {
  Agent,
  decodeEvent,
  foldEvents,
  foldStream,
  type AgentState,
  type StreamEvent,
} from '@agentlog/core';
import { forkStream } from '@agentlog/replay';
import { createSqliteEventStore } from '@agentlog/store';
import { reportChildResult, reportReady } from './childResult.js';
import { pingModel } from './pingModel.js';
import { pingTool } from './pingTool.js';
import { synthesiseStream } from './synthesiseStream.js';
import { templateEvents } from './templateEvents.js';
import { appendInBatches } from './appendInBatches.js';

/** The database file the resume figures read: one stream per size, named by {@link resumeStreamId}. */
export const resumeDbFile = 'resume.db';

/** The stream of about `size` events in {@link resumeDbFile}. */
export function resumeStreamId(size: number): string {
  return `resume-${size}`;
}

/** What a resume child measures on one stream. */
export type ResumeFigure = 'build' | 'baseline' | 'fork' | 'fold' | 'decodeFold';

/**
 * Child: writes one valid stream of about `size` events (synthesised from a real ping run) per
 * size into `dir`/resume.db through the store's own append, in batches of 5,000, and reports
 * each stream's length as the figure named by its size.
 */
export async function prepareResumeStreams(dir: string, sizes: readonly number[]): Promise<void> {
  const template = await templateEvents('resume-bench');
  const store = createSqliteEventStore({ path: join(dir, resumeDbFile), durability: 'process' });
  const figures: Record<string, number> = {};
  try {
    for (const size of sizes) {
      const streamId = resumeStreamId(size);
      const events = synthesiseStream(template, size);
      await appendInBatches(store, streamId, events, 5_000);
      figures[String(size)] = events.length;
    }
    reportChildResult({ seconds: 0, figures });
  } finally {
    store.close();
  }
}

/** `globalThis.gc`, which node gives with `--expose-gc`; the heap figures need it. */
function collect(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) throw new Error('resume bench: run the child with --expose-gc');
  gc();
  gc();
}

/**
 * Child (run with `--expose-gc`): times one figure on the stream of `size` events in
 * `dir`/resume.db and reports, besides the seconds, `events`, `retainedBytes` (heapUsed after a
 * full collection with the result still held, minus heapUsed after a full collection before the
 * timed part) and `peakRssBytes` (peak RSS of the process minus its RSS before the timed part).
 *
 * - `build`: `Agent.builder()…build()` on the stream: read, decode, check, fold (SPEC RES-1).
 * - `baseline`: the same rows' event text read with better-sqlite3 (`.raw().iterate()`),
 *   `JSON.parse` of each, and a trivial reducer (a count and the last revision); nothing kept.
 * - `fork`: `forkStream` at the middle revision, on a private copy of the file.
 * - `fold`: `foldEvents` (check, fold) of the stream page by page, as a resume folds it: each page
 *   of {@link foldPage} rows is read, parsed and decoded (in place: the decoded events are the
 *   parsed objects) untimed, then folded onto the state of the pages before it, timed; only the
 *   page and the state are alive. The seconds are the sum of the timed folds.
 * - `decodeFold`: `foldStream` (decode, check, fold) of the same pages, parsed untimed.
 */
export async function measureResume(
  dir: string,
  size: number,
  figure: ResumeFigure,
): Promise<void> {
  const path = join(dir, resumeDbFile);
  const streamId = resumeStreamId(size);
  if (figure === 'baseline') {
    const db = new Database(path, { readonly: true });
    try {
      const rows = db
        .prepare('SELECT event FROM agentlog_events WHERE stream_id = ? ORDER BY revision')
        .raw();
      await measured(() => {
        let count = 0;
        let last = -1;
        for (const row of rows.iterate(streamId) as IterableIterator<[string]>) {
          const event = JSON.parse(row[0]) as StreamEvent;
          count += 1;
          last = event.metadata.revision;
        }
        if (last !== count - 1) throw new Error(`baseline: ${count} rows, last revision ${last}`);
        return { events: count, held: last };
      });
    } finally {
      db.close();
    }
    return;
  }
  if (figure === 'fold' || figure === 'decodeFold') {
    measurePagedFold(path, streamId, figure);
    return;
  }
  const store = createSqliteEventStore({ path });
  try {
    const length =
      ((await store.readStream(streamId, { direction: 'backwards', maxCount: 1 }))[0]?.metadata
        .revision ?? -1) + 1;
    if (length === 0) throw new Error(`no stream ${streamId} in ${path}`);
    if (figure === 'build') {
      const ping = pingTool();
      await measured(async () => {
        const agent = await Agent.builder()
          .llm(pingModel(1, 'resume'))
          .tools([ping.tool])
          .store(store)
          .streamId(streamId)
          .build();
        if (agent.state().revision !== length - 1)
          throw new Error(`build: folded to revision ${agent.state().revision} of ${length - 1}`);
        return { events: length, held: agent };
      });
    } else {
      const middle = Math.floor(length / 2);
      const to = `fork-${process.pid}-${Date.now()}`;
      try {
        await measured(async () => {
          const last = await forkStream(store, { from: streamId, atRevision: middle, to });
          if (last !== middle + 1) throw new Error(`fork: the fork ends at revision ${last}`);
          return { events: middle + 1, held: last };
        });
      } finally {
        // The next run forks the same stream: the file goes back to what it was.
        const db = new Database(path);
        try {
          db.prepare('DELETE FROM agentlog_events WHERE stream_id = ?').run(to);
        } finally {
          db.close();
        }
      }
    }
  } finally {
    store.close();
  }
}

/** Rows per page of the paged fold figures: what a build reads at a time (`foldPageSize`). */
export const foldPage = 1_000;

/** The `fold` and `decodeFold` figures: see {@link measureResume}. */
function measurePagedFold(path: string, streamId: string, figure: 'fold' | 'decodeFold'): void {
  const db = new Database(path, { readonly: true });
  try {
    const rows = db
      .prepare('SELECT event FROM agentlog_events WHERE stream_id = ? ORDER BY revision')
      .pluck();
    collect();
    reportReady();
    let state: AgentState | undefined;
    let events = 0;
    let seconds = 0;
    let cpuMicros = 0;
    let page: StreamEvent[] = [];
    const fold = () => {
      const decoded = figure === 'fold' ? page.map(decodeEvent) : undefined;
      const cpuBefore = process.cpuUsage();
      const start = performance.now();
      state = decoded === undefined ? foldStream(page, state).state : foldEvents(decoded, state);
      seconds += (performance.now() - start) / 1_000;
      const cpu = process.cpuUsage(cpuBefore);
      cpuMicros += cpu.user + cpu.system;
      events += page.length;
      page = [];
    };
    for (const text of rows.iterate(streamId) as IterableIterator<string>) {
      page.push(JSON.parse(text) as StreamEvent);
      if (page.length === foldPage) fold();
    }
    if (page.length > 0) fold();
    if (state?.revision !== events - 1)
      throw new Error(`fold: revision ${state?.revision} after ${events} events`);
    reportChildResult({ seconds, figures: { events, cpuSeconds: cpuMicros / 1e6 } });
  } finally {
    db.close();
  }
}

/**
 * Prints `ready`, then times `work` and reports its seconds with the heap it retains (its result
 * held) and the peak RSS it added.
 */
async function measured(
  work: () => { events: number; held: unknown } | Promise<{ events: number; held: unknown }>,
): Promise<void> {
  collect();
  const heapBefore = process.memoryUsage().heapUsed;
  const rssBefore = process.memoryUsage.rss();
  reportReady();
  const cpuBefore = process.cpuUsage();
  const start = performance.now();
  const { events, held } = await work();
  const seconds = (performance.now() - start) / 1_000;
  const cpu = process.cpuUsage(cpuBefore);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  const peakRssBytes = process.resourceUsage().maxRSS * 1_024 - rssBefore;
  collect();
  const retainedBytes = process.memoryUsage().heapUsed - heapBefore;
  reportChildResult({
    seconds,
    figures: { events, cpuSeconds, retainedBytes, peakRssBytes: Math.max(0, peakRssBytes) },
  });
  // Held until here, so the collection above counts what the result keeps.
  if (held === undefined) throw new Error('resume bench: nothing measured');
}

/** The figure a child's scenario names. */
export function resumeFigureOf(text: string): ResumeFigure {
  if (
    text === 'build' ||
    text === 'baseline' ||
    text === 'fork' ||
    text === 'fold' ||
    text === 'decodeFold'
  )
    return text;
  throw new Error(`resume bench: unknown figure ${text}`);
}
