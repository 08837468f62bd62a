import type { AgentState } from '../events/agentState.js';
import type { ToolCall } from '../messages/toolCall.js';

/**
 * The calls a run re-invokes before asking the model (SPEC HITL-4): those of the last assistant
 * message with tool calls, provided no tool output follows it; any output after it, even a
 * sibling's, counts as an answer. A call that was started and never answered (the process died)
 * is resumed either way (fix: otherwise the model would see a call without an output).
 */
export function callsToResume(state: AgentState): ToolCall[] {
  const { history } = state;
  let outputFollows = false;
  for (let index = history.length - 1; index >= 0; index -= 1) {
    const message = history[index];
    if (message === undefined) continue;
    if (message.role === 'tool') outputFollows = true;
    if (message.role !== 'assistant' || message.toolCalls.length === 0) continue;
    return message.toolCalls.filter((toolCall) => {
      const status = state.toolCalls[toolCall.id]?.status;
      if (outputFollows) return status === 'started';
      return status !== 'completed' && status !== 'failed';
    });
  }
  return [];
}

/** True when messages were added since the last completion and the model should answer them (SPEC LOOP-3). */
export function hasNewMessages(state: AgentState, stopOnAssistant: boolean): boolean {
  if (state.history.length <= state.historyLengthAtLastCompletion) return false;
  return !(stopOnAssistant && state.history.at(-1)?.role === 'assistant');
}

/** True when `run()` would do anything: a first system prompt, queued texts, calls to resume, or new messages. */
export function hasWork(
  state: AgentState,
  options: { systemPrompt: boolean; stopOnAssistant: boolean },
): boolean {
  return (
    (options.systemPrompt && !state.systemPromptAdded) ||
    state.queued.length > 0 ||
    callsToResume(state).length > 0 ||
    hasNewMessages(state, options.stopOnAssistant)
  );
}
