import type { AgentContext } from '../api/agentContext.js';
import { AgentError } from '../errors/agentError.js';
import type { ApprovalVerdict } from '../events/agentEvent.js';
import { toolCallOf } from '../events/stateQueries.js';
import type { ToolCall } from '../messages/toolCall.js';
import type { ToolFeedback } from '../messages/toolFeedback.js';
import { StreamContext } from './streamContext.js';
import type { StreamWriter } from '../writer/streamWriter.js';

/**
 * The context of one tool invocation. Reading a decision consumes it (SPEC HITL-3), but as a
 * value: the calls it consumed are handed to the decider with the tool's result and recorded with
 * its outcome, in batch order, so the stream does not depend on which tool finished first.
 */
export class InvocationContext extends StreamContext implements AgentContext {
  /** Calls whose decision this invocation consumed. */
  readonly consumed: string[] = [];

  constructor(
    writer: StreamWriter,
    /**
     * Where the run's abort signal comes from (SPEC LOOP-10): the run's options, or the batch's
     * `AbortRelay`, which makes its signal only when a tool reads it.
     */
    private readonly aborts?: { readonly signal?: AbortSignal | undefined },
  ) {
    super(writer);
  }

  /** The run's abort signal, as it reaches this invocation. */
  get signal(): AbortSignal | undefined {
    return this.aborts?.signal;
  }

  hasReceivedFeedback(toolCall: ToolCall): Promise<ToolFeedback | undefined> {
    if (this.consumed.includes(toolCall.id)) return Promise.resolve(undefined);
    const decision = this.writer.state.feedback[toolCall.id];
    if (decision !== undefined) this.consumed.push(toolCall.id);
    return Promise.resolve(decision?.feedback);
  }

  /** The approval verdict this call's start recorded, if any (SPEC HITL-13, HITL-15). */
  recordedApproval(toolCall: ToolCall): ApprovalVerdict | undefined {
    return toolCallOf(this.writer.state, toolCall.id)?.approval;
  }

  feedbackReceived(toolCall: ToolCall): Promise<void> {
    return Promise.reject(
      new AgentError(
        'invalidFeedback',
        `feedback for tool call ${toolCall.id}: a tool cannot record a decision; a person gives it through agent.context()`,
      ),
    );
  }
}

/**
 * The approval verdict the call's start recorded (SPEC HITL-13, HITL-15), read from the stream the
 * invocation runs on; `undefined` for a context that is not an invocation's.
 */
export function approvalVerdictOf(
  context: AgentContext,
  toolCall: ToolCall,
): ApprovalVerdict | undefined {
  return context instanceof InvocationContext ? context.recordedApproval(toolCall) : undefined;
}
