import type { AgentState, PendingDecision } from '../events/agentState.js';
import { callsAwaitingDecision } from '../events/stateQueries.js';
import type { ToolCall } from '../messages/toolCall.js';

/** A `feedbackRequired` stop whose call has since been decided on: the decision and the call. */
export interface DecidedStop extends PendingDecision {
  readonly toolCall: ToolCall;
}

/**
 * The decision recorded on the call a `feedbackRequired` stop asked about, when no call of the
 * stream waits for a person any more; `undefined` otherwise. Such a run does not wait for a
 * decision: a refused one ended there, an approved one waits for a run to resume it (HITL-11).
 */
export function decidedStop(state: AgentState): DecidedStop | undefined {
  const reason = state.stopReason;
  if (state.status !== 'stopped' || reason?.kind !== 'feedbackRequired') return undefined;
  const decision = state.feedback[reason.toolCall.id];
  if (decision === undefined || callsAwaitingDecision(state).length > 0) return undefined;
  return { ...decision, toolCall: reason.toolCall };
}
