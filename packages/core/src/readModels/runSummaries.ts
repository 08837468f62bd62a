import type { AgentState } from '../events/agentState.js';
import type { EventStore } from '../ports/eventStore.js';
import type { WorkState } from '../ports/workIndex.js';
import { foldOfStream } from '../writer/foldCache.js';
import type { UnreadableStream } from './waitingCalls.js';

/** One run as the runs page and `agentlog list` show it. */
export interface RunSummary {
  readonly streamId: string;
  /** The fold of the stream. */
  readonly state: AgentState;
  /** How many events the stream holds. */
  readonly events: number;
  /** The stream's entry in the store's work index, when the store keeps one. */
  readonly work?: WorkState;
}

/** Every run of a store, and the streams that could not be folded. */
export interface RunSummaries {
  readonly runs: readonly RunSummary[];
  readonly unreadable: readonly UnreadableStream[];
}

/**
 * Every non-empty stream of `store`, in the store's order, folded from this process's last fold
 * of it (so a page shown again reads only the new events), with its work-index entry. A stream
 * that cannot be folded is reported in `unreadable` and never hides the others.
 */
export async function runSummaries(store: EventStore): Promise<RunSummaries> {
  const work = await store.work?.workOf();
  const runs: RunSummary[] = [];
  const unreadable: UnreadableStream[] = [];
  for (const streamId of await store.listStreams()) {
    let state: AgentState;
    try {
      ({ state } = await foldOfStream(store, streamId, () => undefined));
    } catch (error) {
      unreadable.push({
        streamId,
        error: error instanceof Error ? error : new Error(String(error)),
      });
      continue;
    }
    if (state.revision < 0) continue;
    const entry = work?.get(streamId);
    runs.push({
      streamId,
      state,
      events: state.revision + 1,
      ...(entry === undefined ? {} : { work: entry }),
    });
  }
  return { runs, unreadable };
}
