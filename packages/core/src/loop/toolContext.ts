import type { AgentContext, FeedbackAuthor } from '../agent/agentContext.js';
import { AgentError } from '../errors/agentError.js';
import type { ChatMessage } from '../messages/chatMessage.js';
import type { ToolCall } from '../messages/toolCall.js';
import type { ToolFeedback } from '../messages/toolFeedback.js';
import { findNonJson } from '../support/json.js';
import type { StreamWriter } from './streamWriter.js';
import { toolCallOf } from '../events/stateQueries.js';

/**
 * The context handed to callers (`agent.context()`) and, one per invocation, to tools. A caller's
 * `hasReceivedFeedback` records `FeedbackConsumed` at once; a tool's is collected and recorded with
 * the tool's outcome, in batch order, so the stream does not depend on which tool finished first.
 */
export class ToolContext implements AgentContext {
  /** Calls whose decision this invocation consumed, to be recorded with its outcome. */
  readonly consumed: string[] = [];

  constructor(
    private readonly writer: StreamWriter,
    private readonly options: {
      readonly deferConsumption: boolean;
      readonly beforeCommand: () => Promise<void>;
      /** Catches up without refusing a foreign run: a decision may be recorded during one. */
      readonly beforeDecision?: () => Promise<void>;
    },
  ) {}

  get streamId(): string {
    return this.writer.streamId;
  }

  history(): readonly ChatMessage[] {
    return this.writer.state.history;
  }

  idempotencyKey(toolCall: ToolCall): string {
    return `${this.writer.streamId}:${toolCall.id}`;
  }

  /** The decision on this call that this context has not consumed yet, without consuming it. */
  peekFeedback(toolCall: ToolCall): ToolFeedback | undefined {
    if (this.consumed.includes(toolCall.id)) return undefined;
    return this.writer.state.feedback[toolCall.id]?.feedback;
  }

  async hasReceivedFeedback(toolCall: ToolCall): Promise<ToolFeedback | undefined> {
    if (this.consumed.includes(toolCall.id)) return undefined;
    if (!this.options.deferConsumption) await this.options.beforeCommand();
    const decision = this.writer.state.feedback[toolCall.id];
    if (decision === undefined) return undefined;
    if (this.options.deferConsumption) this.consumed.push(toolCall.id);
    else
      await this.writer.append([{ type: 'FeedbackConsumed', data: { toolCallId: toolCall.id } }]);
    return decision.feedback;
  }

  async feedbackReceived(
    toolCall: ToolCall,
    feedback: ToolFeedback,
    author: FeedbackAuthor = {},
  ): Promise<void> {
    await (this.options.beforeDecision ?? this.options.beforeCommand)();
    const call = toolCallOf(this.writer.state, toolCall.id);
    const invalid = (problem: string): AgentError =>
      new AgentError('invalidFeedback', `feedback for tool call ${toolCall.id}: ${problem}`);
    if (call === undefined) throw invalid('the model never made this call in this stream');
    if (call.status === 'completed' || call.status === 'failed') {
      throw invalid('the call is not open, it was already answered');
    }
    if (this.writer.state.feedback[toolCall.id] !== undefined) {
      throw invalid('a decision was already given and no invocation has used it yet');
    }
    if (feedback.kind !== 'approved' && feedback.kind !== 'refused') {
      throw invalid(`the decision must be approved or refused, not ${String(feedback.kind)}`);
    }
    const nonJson = feedback.payload === undefined ? undefined : findNonJson(feedback.payload);
    if (nonJson !== undefined) throw invalid(`the payload is not JSON: ${nonJson}`);
    for (const [field, value] of Object.entries(author)) {
      if (value !== undefined && typeof value !== 'string')
        throw invalid(`${field} must be a string`);
    }
    const decision: ToolFeedback =
      feedback.payload === undefined
        ? { kind: feedback.kind }
        : { kind: feedback.kind, payload: feedback.payload };
    await this.writer.append(
      [
        {
          type: 'FeedbackReceived',
          data: {
            toolCallId: toolCall.id,
            feedback: decision,
            ...(author.by === undefined ? {} : { by: author.by }),
            ...(author.note === undefined ? {} : { note: author.note }),
          },
        },
      ],
      { durable: true },
    );
  }
}
