import { join } from 'node:path';
import { Agent } from '@agentlog/core';
import { forkStream } from '@agentlog/replay';
import { createSqliteEventStore } from '@agentlog/store';
import { checkPingRun } from './agentlogPing.js';
import { reportChildResult, reportReady } from './childResult.js';
import { pingModel } from './pingModel.js';
import { pingTool } from './pingTool.js';
import { synthesiseStream } from './synthesiseStream.js';
import { templateEvents } from './templateEvents.js';
import { appendInBatches } from './appendInBatches.js';

/** The stream every SQLite figure reads; its database file is `dbFileName` in the given folder. */
export const benchStreamId = 'bench-long-stream';
/** The database file name {@link prepareSqliteStream} writes. */
export const dbFileName = 'stream.db';

/** What a child measures on the long SQLite stream. */
export type SqliteStreamFigure = 'build' | 'resume' | 'fork';

/**
 * Child: writes a valid stream of about `size` events (synthesised from a real ping run, as the
 * fold bench does) into `dir`/stream.db, appended in batches of 500, and reports its length.
 */
export async function prepareSqliteStream(dir: string, size: number): Promise<void> {
  const events = synthesiseStream(await templateEvents(benchStreamId), size);
  const store = createSqliteEventStore({ path: join(dir, dbFileName) });
  try {
    await appendInBatches(store, benchStreamId, events, 500);
    reportChildResult({ seconds: 0, figures: { events: events.length } });
  } finally {
    store.close();
  }
}

/**
 * Child: on the stream in `dir`/stream.db (a private copy), times one figure: `build` (an Agent
 * built on the stream, which folds it), `resume` (build plus a `query` of one more ping step) or
 * `fork` (`forkStream` at the middle revision).
 */
export async function measureSqliteStream(dir: string, figure: SqliteStreamFigure): Promise<void> {
  const store = createSqliteEventStore({ path: join(dir, dbFileName) });
  try {
    const length = (
      await store.readStream(benchStreamId, { direction: 'backwards', maxCount: 1 })
    )[0]?.metadata.revision;
    if (length === undefined) throw new Error(`no stream ${benchStreamId} in ${dir}`);
    const model = pingModel(1, 'resume');
    const ping = pingTool();
    const build = () =>
      Agent.builder().llm(model).tools([ping.tool]).store(store).streamId(benchStreamId).build();
    reportReady();
    const start = performance.now();
    if (figure === 'build') {
      const agent = await build();
      const seconds = (performance.now() - start) / 1_000;
      if (agent.state().revision !== length)
        throw new Error(`build: folded to revision ${agent.state().revision}`);
      reportChildResult({ seconds });
    } else if (figure === 'resume') {
      const agent = await build();
      await agent.query('one more');
      const seconds = (performance.now() - start) / 1_000;
      checkPingRun(1, ping.invocations(), agent.history().at(-1));
      reportChildResult({ seconds });
    } else {
      const last = await forkStream(store, {
        from: benchStreamId,
        atRevision: Math.floor(length / 2),
        to: 'bench-fork',
      });
      const seconds = (performance.now() - start) / 1_000;
      if (last !== Math.floor(length / 2) + 1)
        throw new Error(`fork: the fork ends at revision ${last}`);
      reportChildResult({ seconds });
    }
  } finally {
    store.close();
  }
}
