import type { AgentState } from '../events/agentState.js';
import { decidedStop } from './decidedStop.js';

/**
 * `pending`, `running`, or `stopped: <reason kind> (<cause>)`; a `feedbackRequired` stop whose
 * call has been decided on says so (`stopped: refused by ana (feedbackRequired)`): it does not
 * wait for a decision.
 */
export function runStatus(state: AgentState): string {
  if (state.status !== 'stopped') return state.status;
  const decided = decidedStop(state);
  const kind =
    decided === undefined
      ? (state.stopReason?.kind ?? '?')
      : `${decided.feedback.kind}${decided.by === undefined ? '' : ` by ${decided.by}`}${decided.feedback.kind === 'approved' ? ', not resumed yet' : ''}`;
  return `stopped: ${kind} (${state.stopCause ?? '?'})`;
}
