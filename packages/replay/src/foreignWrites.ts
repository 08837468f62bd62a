import type { AgentEvent, EventStore } from '@agentlog/core';

/** Events another process may append to a stream while a run works on it. */
const foreign = new Set(['StopRequested', 'FeedbackReceived']);

/**
 * The replay's store, writing again what other processes wrote during a recorded run: after each
 * append of the replayed agent, a recorded decision or stop request that came next, inside a run,
 * is appended as the recording has it, so the replayed run meets it where the recorded one did
 * (SPEC RPL-2, HITL-12). Outside a run such events are the caller's commands, given by the replay.
 */
export function withForeignWrites(
  store: EventStore,
  streamId: string,
  events: readonly AgentEvent[],
): EventStore {
  const insideRun = new Set<number>();
  let running = false;
  for (const event of events) {
    if (running && foreign.has(event.type)) insideRun.add(event.metadata.revision);
    if (event.type === 'RunStarted') running = true;
    if (event.type === 'AgentStopped') running = false;
  }
  const wrapped: EventStore = Object.create(store) as EventStore;
  wrapped.appendToStream = async (id, appended, options) => {
    const result = await store.appendToStream(id, appended, options);
    if (id !== streamId) return result;
    let next = result.nextExpectedRevision;
    while (insideRun.has(next + 1)) {
      const event = events[next + 1] as AgentEvent;
      insideRun.delete(next + 1);
      const { revision: _revision, ...metadata } = event.metadata;
      ({ nextExpectedRevision: next } = await store.appendToStream(
        id,
        [{ type: event.type, data: event.data, metadata }],
        { expectedRevision: next },
      ));
    }
    return result;
  };
  return wrapped;
}
