import type { AgentState } from '../events/agentState.js';
import type { EventStore } from '../ports/eventStore.js';
import { foldOfStream } from '../writer/foldCache.js';

/**
 * The state of `streamId` now: its fold, continued from the fold this process last saw of the
 * stream when the store still holds that event (SPEC RES-1), so a screen that shows a stream again
 * reads only its new events. An unknown stream folds to the initial state (revision -1).
 */
export async function stateOf(store: EventStore, streamId: string): Promise<AgentState> {
  return (await foldOfStream(store, streamId, () => undefined)).state;
}
