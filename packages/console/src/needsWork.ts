import type { AgentState, WorkState } from '@agentlog/core';
import { callsAwaitingDecision } from '@agentlog/core/read-models';

/**
 * Whether a run needs a person or a worker: a call waits for a decision, a decision waits for a
 * run, or the store's work index (when it keeps one) says the stream is `requested` or `ready`.
 */
export function needsWork(state: AgentState, work?: WorkState): boolean {
  return (
    callsAwaitingDecision(state).length > 0 ||
    Object.keys(state.feedback).length > 0 ||
    work?.status === 'requested' ||
    work?.status === 'ready'
  );
}
