import type { JsonValue } from '../support/json.js';

/** A person's decision on a tool call that waits (SPEC HITL-3). Plain data, as stored. */
export interface ToolFeedback {
  readonly kind: 'approved' | 'refused';
  readonly payload?: JsonValue;
}

/** A decision fresh from `ToolFeedback.approved()`/`.refused()`, which can still take a payload. */
export interface ToolFeedbackDraft extends ToolFeedback {
  /** The same decision carrying `payload` (the approval tool ignores it; custom tools read it). */
  withPayload(payload: JsonValue): ToolFeedback;
}

function draft(kind: ToolFeedback['kind']): ToolFeedbackDraft {
  const feedback = { kind } as ToolFeedbackDraft;
  // Not enumerable, so the stored form of a decision stays plain JSON.
  Object.defineProperty(feedback, 'withPayload', {
    enumerable: false,
    value: (payload: JsonValue): ToolFeedback => ({ kind, payload }),
  });
  return feedback;
}

/** Constructors and guards of {@link ToolFeedback}. */
export const ToolFeedback = {
  approved: (): ToolFeedbackDraft => draft('approved'),
  refused: (): ToolFeedbackDraft => draft('refused'),
  isApproved: (feedback: ToolFeedback | undefined): boolean => feedback?.kind === 'approved',
  isRefused: (feedback: ToolFeedback | undefined): boolean => feedback?.kind === 'refused',
} as const;

/** The text output the model sees when a person refuses a call (SPEC HITL-1). */
export const REFUSAL_TEXT = 'This tool call was refused';
