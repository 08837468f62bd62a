import type { ToolCall } from '../messages/toolCall.js';
import type { JsonValue } from '../support/json.js';

/**
 * Why a run ended (SPEC STOP-6), discriminated on `kind`. More kinds may be added: a `switch`
 * over it needs a default branch.
 */
export type StopReason =
  | { readonly kind: 'requestedByTool'; readonly toolCall: ToolCall; readonly payload?: JsonValue }
  | { readonly kind: 'agentFailed'; readonly payload?: JsonValue }
  | { readonly kind: 'toolCallsOverLimit'; readonly toolCall: ToolCall }
  | { readonly kind: 'feedbackRequired'; readonly toolCall: ToolCall; readonly payload?: JsonValue }
  | { readonly kind: 'error'; readonly message: string }
  | { readonly kind: 'noNewMessages' }
  | { readonly kind: 'other'; readonly text: string };

/** The stop reason of the given kind. */
export type StopReasonOf<K extends StopReason['kind']> = Extract<StopReason, { kind: K }>;

const guard =
  <K extends StopReason['kind']>(kind: K) =>
  (reason: StopReason | undefined): reason is StopReasonOf<K> =>
    reason?.kind === kind;

/** A tool (usually `stop`) ended the run; treat it as success. */
export const isRequestedByTool = guard('requestedByTool');
/** A tool (usually `task_failed`) reported that the task cannot be done. */
export const isAgentFailed = guard('agentFailed');
/** One call failed more often than `toolRetryLimit` allows; the run also rejected. */
export const isToolCallsOverLimit = guard('toolCallsOverLimit');
/** A tool call waits for a person's decision. */
export const isFeedbackRequired = guard('feedbackRequired');
/** A step failed; the run also rejected. */
export const isError = guard('error');
/** The model answered without a tool call, answered nothing, or the limit was reached. */
export const isNoNewMessages = guard('noNewMessages');
/** The caller's code stopped the agent with `agent.stop(text)`. */
export const isOther = guard('other');

/**
 * What exactly ended a run (beyond Swiftide): `noNewMessages` alone does not say whether the model
 * answered in text, answered nothing, hit the limit or ran its single step.
 */
export type StopCause = (typeof STOP_CAUSES)[number];

/** Every stop cause, listed once: the type above and the check of stored events derive from it. */
export const STOP_CAUSES = [
  'toolRequestedStop',
  'toolReportedFailure',
  'toolCallsOverLimit',
  'feedbackRequired',
  'error',
  'assistantAnswered',
  'emptyResponse',
  'limitReached',
  'singleStep',
  'nothingNew',
  /** The caller's abort signal ended the run; it resumes (SPEC LOOP-10). */
  'aborted',
  /** The model refused to answer (SPEC LOOP-11). */
  'modelRefused',
  /** The model hit its token limit; tool calls it was cutting are not run (SPEC LOOP-11). */
  'tokenLimit',
  /** A content filter cut the answer (SPEC LOOP-11). */
  'contentFiltered',
  /** The caller's code called stop: `agent.stop(text)`, or a hook (then `AgentStopped.hook` names it). */
  'stoppedByCaller',
] as const;
