import { foldEvents } from '@agentlog/core';
import { reportChildResult, reportReady } from './childResult.js';
import { synthesiseStream } from './synthesiseStream.js';
import { templateEvents } from './templateEvents.js';

/**
 * Child: synthesises a valid stream of about `size` parsed events from a real 300-step ping run,
 * prints `ready`, then times one `foldEvents(events)` and checks the folded revision.
 */
export async function foldBench(size: number): Promise<void> {
  const events = synthesiseStream(await templateEvents('fold-bench'), size);
  reportReady();
  const start = performance.now();
  const state = foldEvents(events);
  const seconds = (performance.now() - start) / 1_000;
  if (state.revision !== events.length - 1) {
    throw new Error(`fold: revision ${state.revision} after ${events.length} events`);
  }
  reportChildResult({ seconds, figures: { events: events.length } });
}
