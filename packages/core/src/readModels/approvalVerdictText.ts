import type { ApprovalVerdict, DecisionScope } from '../events/agentEvent.js';

/**
 * What a screen says of the approval verdict a call's start recorded (SPEC HITL-13, HITL-15), as
 * plain text for the caller to make visible and escape: `undefined` when the start recorded none
 * (a plain gate, or no gate).
 */
export function approvalVerdictText(verdict: ApprovalVerdict | undefined): string | undefined {
  switch (verdict?.kind) {
    case undefined:
      return undefined;
    case 'required':
      return verdict.error === undefined
        ? 'needs approval: its condition said so'
        : `needs approval: ${verdict.error}`;
    case 'notRequired':
      return 'no approval needed: its condition said so';
    case 'approvedForRun':
      return `approved for the run${verdict.by === undefined ? '' : ` by ${verdict.by}`} (decision on ${verdict.toolCallId})`;
  }
}

/** What a screen adds to a decision for its scope (SPEC HITL-15): nothing for one call. */
export function decisionScopeText(scope: DecisionScope | undefined): string {
  return scope === 'run' ? ' for the rest of the run' : '';
}
