import type { AgentContext, FeedbackAuthor } from '../api/agentContext.js';
import type { Command } from '../decider/decideCommand.js';
import type { AgentState } from '../events/agentState.js';
import type { ToolCall } from '../messages/toolCall.js';
import type { ToolFeedback } from '../messages/toolFeedback.js';
import { StreamContext } from './streamContext.js';
import type { StreamWriter } from '../writer/streamWriter.js';

/**
 * How the caller's context gives a command: the façade catches up, decides and appends it, and
 * resolves with the state the command was decided on.
 */
export type GiveCommand = (
  command: Command,
  options?: { readonly durable?: boolean },
) => Promise<AgentState>;

/**
 * The context handed to callers (`agent.context()`): a decision and the read of a decision are the
 * caller's commands, judged by the decider and appended at once (SPEC HITL-3, HITL-10).
 */
export class CallerContext extends StreamContext implements AgentContext {
  constructor(
    writer: StreamWriter,
    private readonly give: GiveCommand,
  ) {
    super(writer);
  }

  async hasReceivedFeedback(toolCall: ToolCall): Promise<ToolFeedback | undefined> {
    const before = await this.give({ kind: 'consumeDecision', toolCallId: toolCall.id });
    return before.feedback[toolCall.id]?.feedback;
  }

  async feedbackReceived(
    toolCall: ToolCall,
    feedback: ToolFeedback,
    author: FeedbackAuthor = {},
  ): Promise<void> {
    await this.give(
      {
        kind: 'recordDecision',
        toolCallId: String(toolCall?.id),
        feedback,
        by: author?.by,
        note: author?.note,
        scope: author?.scope,
      },
      { durable: true },
    );
  }
}
