import type { AgentState } from '../events/agentState.js';
import type { ToolCall } from '../messages/toolCall.js';
import { historyLength, lastBatch, lastMessage, toolCallOf } from '../events/stateQueries.js';

/**
 * The calls a run re-invokes before asking the model (SPEC HITL-4): those of the last assistant
 * message with tool calls, provided no tool output follows it; any output after it, even a
 * sibling's, counts as an answer. A call that was started and never answered (the process died),
 * and a call the loop asked a person about for that reason, are resumed either way (fix:
 * otherwise the model would see a call without an output).
 */
export function callsToResume(state: AgentState): ToolCall[] {
  const batch = lastBatch(state);
  if (batch === undefined) return [];
  return batch.message.toolCalls.filter((toolCall) => {
    const call = toolCallOf(state, toolCall.id);
    const status = call?.status;
    // A call cut off by a crash, or the question the loop itself asked about one (TOOL-7), is
    // the loop's to finish: the model's HITL-5 gotcha does not apply to it.
    if (batch.outputFollows)
      return status === 'started' || (status === 'waiting' && call?.ambiguous === true);
    return status !== 'completed' && status !== 'failed';
  });
}

/** True when messages were added since the last completion and the model should answer them (SPEC LOOP-3). */
export function hasNewMessages(state: AgentState, stopOnAssistant: boolean): boolean {
  if (historyLength(state) <= state.historyLengthAtLastCompletion) return false;
  return !(stopOnAssistant && lastMessage(state)?.role === 'assistant');
}
