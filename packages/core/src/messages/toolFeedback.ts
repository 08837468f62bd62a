import type { JsonValue } from '../support/json.js';

/** A person's decision on a tool call that waits (SPEC HITL-3). Plain data, as stored. */
export interface ToolFeedback {
  readonly kind: 'approved' | 'refused';
  readonly payload?: JsonValue;
  /** For a refusal: words for the model, added to the refusal text it reads (SPEC HITL-14). */
  readonly reason?: string;
}

/**
 * A decision fresh from `ToolFeedback.approved()`/`.refused()`, which can still take a payload
 * and, for a refusal, a reason; each `with…` keeps what the decision already holds.
 */
export interface ToolFeedbackDraft extends ToolFeedback {
  /** The same decision carrying `payload` (the approval tool ignores it; custom tools read it). */
  withPayload(payload: JsonValue): ToolFeedbackDraft;
  /**
   * The same decision carrying words for the model (SPEC HITL-14): a refusal's output becomes
   * `This tool call was refused: <reason>`. A note given with the decision is for the audit only.
   */
  withReason(reason: string): ToolFeedbackDraft;
}

function draft(decision: ToolFeedback): ToolFeedbackDraft {
  const feedback = { ...decision } as ToolFeedbackDraft;
  // Not enumerable, so the stored form of a decision stays plain JSON.
  Object.defineProperty(feedback, 'withPayload', {
    enumerable: false,
    value: (payload: JsonValue): ToolFeedbackDraft => draft({ ...decision, payload }),
  });
  Object.defineProperty(feedback, 'withReason', {
    enumerable: false,
    value: (reason: string): ToolFeedbackDraft => draft({ ...decision, reason }),
  });
  return feedback;
}

/** Constructors and guards of {@link ToolFeedback}. */
export const ToolFeedback = {
  approved: (): ToolFeedbackDraft => draft({ kind: 'approved' }),
  refused: (): ToolFeedbackDraft => draft({ kind: 'refused' }),
  isApproved: (feedback: ToolFeedback | undefined): boolean => feedback?.kind === 'approved',
  isRefused: (feedback: ToolFeedback | undefined): boolean => feedback?.kind === 'refused',
} as const;

/** The text output the model sees when a person refuses a call (SPEC HITL-1). */
export const REFUSAL_TEXT = 'This tool call was refused';

/**
 * What the model reads for a refusal (SPEC HITL-1, HITL-14): {@link REFUSAL_TEXT}, followed by
 * the refusal's reason when it has one. A decision's note never reaches the model.
 */
export function refusalText(feedback: ToolFeedback): string {
  const reason = feedback.reason?.trim();
  return reason === undefined || reason === '' ? REFUSAL_TEXT : `${REFUSAL_TEXT}: ${reason}`;
}
