import type { AgentState, ToolCallState } from '@agentlog/core';

/**
 * The calls of `state` that wait for a person: asked for feedback and holding no decision yet.
 * A call that holds a decision waits for a run, not for a person (HITL-11).
 */
export function callsAwaitingDecision(state: AgentState): ToolCallState[] {
  return Object.values(state.toolCalls).filter(
    (call) => call.status === 'waiting' && state.feedback[call.toolCall.id] === undefined,
  );
}
