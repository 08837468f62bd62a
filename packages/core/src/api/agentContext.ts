import type { ChatMessage } from '../messages/chatMessage.js';
import type { ToolCall } from '../messages/toolCall.js';
import type { ToolFeedback } from '../messages/toolFeedback.js';
import type { DecisionScope } from '../events/agentEvent.js';

/**
 * Who made a decision and why (SPEC HITL-10), and how far it reaches (SPEC HITL-15): `scope:
 * 'run'` makes an approval cover every later call of the same tool until the run that follows the
 * decision stops. The default, `call`, covers the one call.
 */
export interface FeedbackAuthor {
  readonly by?: string;
  readonly note?: string;
  readonly scope?: DecisionScope;
}

/**
 * What tools and callers see of the agent: its history and its feedback (SPEC HITL-3). Every
 * change goes through the stream: a decision is a `FeedbackReceived` event, reading it a
 * `FeedbackConsumed` event.
 */
export interface AgentContext {
  readonly streamId: string;
  /**
   * The run's abort signal (SPEC LOOP-10): the caller's, joined with the run's lease (WRK-4) on a
   * store that keeps leases; a tool should stop on it. A tool of a batch gets the caller's abort
   * through the batch, a moment after the caller's signal fired, once the batch noted which calls
   * had finished: those keep their outcomes. A lost lease reaches it at once.
   */
  readonly signal?: AbortSignal | undefined;
  /** Records a person's decision on an open tool call. */
  feedbackReceived(
    toolCall: ToolCall,
    feedback: ToolFeedback,
    author?: FeedbackAuthor,
  ): Promise<void>;
  /** The decision on this call, if any, and consumes it: each decision applies to one invocation. */
  hasReceivedFeedback(toolCall: ToolCall): Promise<ToolFeedback | undefined>;
  /** The whole history, summaries included. */
  history(): readonly ChatMessage[];
  /** `streamId:toolCallId`, stable across retries and processes (SPEC TOOL-7). */
  idempotencyKey(toolCall: ToolCall): string;
}
