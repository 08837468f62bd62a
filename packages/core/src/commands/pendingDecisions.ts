import { callsAwaitingDecision, type AwaitedCall } from '../events/stateQueries.js';
import { foldOfStream } from '../writer/foldCache.js';
import type { EventStore } from '../ports/eventStore.js';

/** A call that waits for a person's decision, and the stream it is on (SPEC HITL-12). */
export interface WaitingCall extends AwaitedCall {
  readonly streamId: string;
}

/**
 * Every call that waits for a decision, across the store's streams (or the given ones), and no
 * call that holds one already (SPEC HITL-11, HITL-12). Needs no model and no tools; each stream
 * is folded once (from this process's fold cache when it can be).
 */
export async function pendingDecisions(
  store: EventStore,
  options: { readonly streamIds?: readonly string[] } = {},
): Promise<WaitingCall[]> {
  const streamIds = options.streamIds ?? (await store.listStreams());
  const pending: WaitingCall[] = [];
  for (const streamId of streamIds) {
    const { state } = await foldOfStream(store, streamId, () => undefined);
    for (const call of callsAwaitingDecision(state)) pending.push({ streamId, ...call });
  }
  return pending;
}
