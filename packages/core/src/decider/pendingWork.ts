import type { AgentState } from '../events/agentState.js';
import type { ToolCall } from '../messages/toolCall.js';
import { historyLength, lastBatch, lastMessage, toolCallOf } from '../events/stateQueries.js';

/**
 * The calls a run re-invokes before asking the model (SPEC HITL-4): those of the last assistant
 * message with tool calls, provided no tool output follows it; any output after it, even a
 * sibling's, counts as an answer. A call that was started and never answered (the process died)
 * is resumed either way (fix: otherwise the model would see a call without an output).
 */
export function callsToResume(state: AgentState): ToolCall[] {
  const batch = lastBatch(state);
  if (batch === undefined) return [];
  return batch.message.toolCalls.filter((toolCall) => {
    const status = toolCallOf(state, toolCall.id)?.status;
    if (batch.outputFollows) return status === 'started';
    return status !== 'completed' && status !== 'failed';
  });
}

/** True when messages were added since the last completion and the model should answer them (SPEC LOOP-3). */
export function hasNewMessages(state: AgentState, stopOnAssistant: boolean): boolean {
  if (historyLength(state) <= state.historyLengthAtLastCompletion) return false;
  return !(stopOnAssistant && lastMessage(state)?.role === 'assistant');
}
