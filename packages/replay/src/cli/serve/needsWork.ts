import type { AgentState } from '@agentlog/core';
import { callsAwaitingDecision } from '../awaitingDecision.js';

/** Whether a run needs a person or a worker: a call waits for a decision or for a run. */
export function needsWork(state: AgentState): boolean {
  return callsAwaitingDecision(state).length > 0 || Object.keys(state.feedback).length > 0;
}
