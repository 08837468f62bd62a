import type { ChatMessage } from '../messages/chatMessage.js';
import type { ToolCall } from '../messages/toolCall.js';
import type { ToolFeedback } from '../messages/toolFeedback.js';

/** Who made a decision and why (SPEC HITL-10). */
export interface FeedbackAuthor {
  readonly by?: string;
  readonly note?: string;
}

/**
 * What tools and callers see of the agent: its history and its feedback (SPEC HITL-3). Every
 * change goes through the stream: a decision is a `FeedbackReceived` event, reading it a
 * `FeedbackConsumed` event.
 */
export interface AgentContext {
  readonly streamId: string;
  /** The run's abort signal, when the caller gave one (SPEC LOOP-10): a tool should stop on it. */
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
