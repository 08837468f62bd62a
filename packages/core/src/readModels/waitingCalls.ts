import type { EventStore } from '../ports/eventStore.js';
import { callsAwaitingDecision, type AwaitedCall } from '../events/stateQueries.js';
import { foldOfStream } from '../writer/foldCache.js';
import { streamsThatMayWait } from './streamsThatMayWait.js';

/** A call that waits for a person's decision, and the stream it is on (SPEC HITL-12). */
export interface WaitingCall extends AwaitedCall {
  readonly streamId: string;
  /** When it asked for the decision (its last `FeedbackRequested`), ISO time. */
  readonly askedAt?: string;
}

/** A stream that could not be folded (a damaged row, events that contradict each other). */
export interface UnreadableStream {
  readonly streamId: string;
  /** What the store or the fold said, naming the event when it can. */
  readonly error: Error;
}

/** Every waiting call, oldest question first, and the streams that could not be read. */
export interface WaitingCalls {
  readonly calls: readonly WaitingCall[];
  readonly unreadable: readonly UnreadableStream[];
}

/**
 * What waits for a person, in one place for the CLI (`agentlog pending`), the console's inbox and
 * `pendingDecisions` (SPEC HITL-11, HITL-12): every call that asked for a decision and holds none,
 * across the store's streams (or the given ones), oldest question first; calls with no known time
 * last, in stream order. A store with a work index folds only the streams it does not list as
 * `idle` (SPEC WRK-2). Each stream is folded from this process's last fold of it, so asking again
 * reads only new events. A stream that cannot be folded is reported, never hides the others.
 */
export async function waitingCalls(
  store: EventStore,
  options: { readonly streamIds?: readonly string[] } = {},
): Promise<WaitingCalls> {
  const streamIds = options.streamIds ?? (await streamsThatMayWait(store));
  const calls: WaitingCall[] = [];
  const unreadable: UnreadableStream[] = [];
  for (const streamId of streamIds) {
    let state;
    try {
      ({ state } = await foldOfStream(store, streamId, () => undefined));
    } catch (error) {
      unreadable.push({
        streamId,
        error: error instanceof Error ? error : new Error(String(error)),
      });
      continue;
    }
    for (const call of callsAwaitingDecision(state)) {
      const askedAt = state.toolCalls[call.toolCall.id]?.askedAt;
      calls.push({ streamId, ...call, ...(askedAt === undefined ? {} : { askedAt }) });
    }
  }
  return { calls: oldestFirst(calls), unreadable };
}

/** The calls by when they asked, oldest first; those with no known time last, in their order. */
function oldestFirst(calls: readonly WaitingCall[]): WaitingCall[] {
  const time = (call: WaitingCall) =>
    call.askedAt === undefined ? Infinity : Date.parse(call.askedAt);
  return calls
    .map((call, index) => ({ call, index }))
    .sort((a, b) => time(a.call) - time(b.call) || a.index - b.index)
    .map(({ call }) => call);
}
