import { isForeignEventType } from '../events/agentEvent.js';

/**
 * Whether a run whose append met `foreign` events (another writer got there first) may fold them
 * in and append on top (SPEC HITL-10, HITL-12, RES-3): only when every one is an event another
 * process may write during a run. Any other means another writer owns the stream now.
 */
export function mayRebase(foreign: readonly { readonly type: string }[]): boolean {
  return foreign.length > 0 && foreign.every((event) => isForeignEventType(event.type));
}
