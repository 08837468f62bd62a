import type { EventStore } from '../ports/eventStore.js';
import { waitingCalls, type WaitingCall } from './waitingCalls.js';

/**
 * Every call that waits for a decision, across the store's streams (or the given ones), and no
 * call that holds one already (SPEC HITL-11, HITL-12), oldest question first. Needs no model and
 * no tools; each stream is folded once (from this process's fold cache when it can be). A store
 * with a work index folds only the streams it does not list as `idle` (SPEC WRK-2). A stream that
 * cannot be folded throws its error; {@link waitingCalls} reports it and goes on instead.
 */
export async function pendingDecisions(
  store: EventStore,
  options: { readonly streamIds?: readonly string[] } = {},
): Promise<WaitingCall[]> {
  const { calls, unreadable } = await waitingCalls(store, options);
  if (unreadable[0] !== undefined) throw unreadable[0].error;
  return [...calls];
}
