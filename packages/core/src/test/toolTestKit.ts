import type { AgentContext } from '../api/agentContext.js';
import { ToolError } from '../errors/toolError.js';
import type { ToolCall } from '../messages/toolCall.js';

/** A context for invoking a tool directly: no feedback, an empty history. */
export function quietContext(streamId: string): AgentContext {
  return {
    streamId,
    feedbackReceived: () => Promise.resolve(),
    hasReceivedFeedback: () => Promise.resolve(undefined),
    history: () => [],
    idempotencyKey: (toolCall) => `${streamId}:${toolCall.id}`,
  };
}

/** A tool call of `name` with optional raw args. */
export function callOf(name: string, id: string): (args?: string) => ToolCall {
  return (args) => ({ id, name, ...(args === undefined ? {} : { args }) });
}

/** The `ToolError` a promise rejects with; fails if it resolves or rejects with something else. */
export async function toolRejection(promise: Promise<unknown>): Promise<ToolError> {
  try {
    await promise;
  } catch (error) {
    if (!(error instanceof ToolError))
      throw new Error(`expected a ToolError, got ${String(error)}`);
    return error;
  }
  throw new Error('expected a rejection');
}
