import { callsAwaitingDecision, type AwaitedCall } from '../events/stateQueries.js';
import { foldOfStream } from '../writer/foldCache.js';
import type { EventStore } from '../ports/eventStore.js';
import { streamsThatMayWait } from './streamsThatMayWait.js';

/** A call that waits for a person's decision, and the stream it is on (SPEC HITL-12). */
export interface WaitingCall extends AwaitedCall {
  readonly streamId: string;
}

/**
 * Every call that waits for a decision, across the store's streams (or the given ones), and no
 * call that holds one already (SPEC HITL-11, HITL-12). Needs no model and no tools; each stream
 * is folded once (from this process's fold cache when it can be). Across the store, a store with
 * a work index folds only the streams it does not list as `idle` (SPEC WRK-2: a stream that waits
 * for a person is `waiting`), and the streams it does not know; a store without one folds all.
 */
export async function pendingDecisions(
  store: EventStore,
  options: { readonly streamIds?: readonly string[] } = {},
): Promise<WaitingCall[]> {
  const streamIds = options.streamIds ?? (await streamsThatMayWait(store));
  const pending: WaitingCall[] = [];
  for (const streamId of streamIds) {
    const { state } = await foldOfStream(store, streamId, () => undefined);
    for (const call of callsAwaitingDecision(state)) pending.push({ streamId, ...call });
  }
  return pending;
}
