import type { AssistantMessage, ChatMessage } from '../messages/chatMessage.js';
import { logAt, logSlice } from '../support/appendLog.js';
import { mapGet } from '../support/versionedMap.js';
import type { AgentState, ToolCallState } from './agentState.js';
import { draftOf } from './stateDraft.js';

// Questions the loop asks the state at every step, answered without building the state's arrays
// and objects: each costs O(1), or O(batch) where it lists calls of a batch.

/** The record of one tool call, by id. */
export function toolCallOf(state: AgentState, toolCallId: string): ToolCallState | undefined {
  return mapGet(draftOf(state).toolCalls, toolCallId);
}

/** How often calls of this tool name and canonical args failed (SPEC TOOL-3). */
export function failureCountOf(state: AgentState, toolCallHash: string): number {
  return mapGet(draftOf(state).failureCounts, toolCallHash) ?? 0;
}

/** The number of messages in the history. */
export function historyLength(state: AgentState): number {
  return draftOf(state).history.length;
}

/** The last message of the history. */
export function lastMessage(state: AgentState): ChatMessage | undefined {
  return logAt(draftOf(state).history, -1);
}

/** The calls the model made that have no output yet, in the order it made them. */
export function unansweredCalls(state: AgentState): ToolCallState[] {
  const draft = draftOf(state);
  return draft.unanswered.map((id) => mapGet(draft.toolCalls, id) as ToolCallState);
}

/** An open call that waits for a person's decision, as callers are shown it (SPEC HITL-11). */
export type AwaitedCall = Pick<
  ToolCallState,
  'toolCall' | 'feedbackPayload' | 'ambiguous' | 'shadowed'
>;

/**
 * Every open call that waits for a decision, not only the first, and none that holds one already
 * (SPEC HITL-11): what `agent.pendingFeedback()` and `pendingDecisions` list.
 */
export function callsAwaitingDecision(state: AgentState): AwaitedCall[] {
  return unansweredCalls(state)
    .filter((call) => call.status === 'waiting' && state.feedback[call.toolCall.id] === undefined)
    .map(({ toolCall, feedbackPayload, ambiguous, shadowed }) => ({
      toolCall,
      ...(feedbackPayload === undefined ? {} : { feedbackPayload }),
      ...(ambiguous === undefined ? {} : { ambiguous }),
      ...(shadowed === undefined ? {} : { shadowed }),
    }));
}

/** The last assistant message with tool calls, and whether any tool output follows it. */
export function lastBatch(
  state: AgentState,
): { readonly message: AssistantMessage; readonly outputFollows: boolean } | undefined {
  const draft = draftOf(state);
  const message = logAt(draft.history, draft.batchIndex);
  if (message?.role !== 'assistant') return undefined;
  return { message, outputFollows: draft.outputAfterBatch };
}

/** The output that entered the history last for this call, searched from the end. */
export function lastOutputOf(state: AgentState, toolCallId: string): ChatMessage | undefined {
  const { history } = draftOf(state);
  for (let index = history.length - 1; index >= 0; index -= 1) {
    const message = history.items[index];
    if (message?.role === 'tool' && message.toolCall.id === toolCallId) return message;
  }
  return undefined;
}

const requestMessages = new WeakMap<AgentState, readonly ChatMessage[]>();
const lineages = new WeakMap<readonly ChatMessage[], MessagesLineage>();

/**
 * Where a list of `completionMessages` comes from: the storage of one append-only history and
 * the summary it starts at. Two lists of one lineage are prefixes of each other.
 */
export interface MessagesLineage {
  readonly items: readonly ChatMessage[];
  readonly summaryIndex: number;
}

/** The lineage of a list that `completionMessages` built, or `undefined` for any other list. */
export function messagesLineage(messages: readonly ChatMessage[]): MessagesLineage | undefined {
  return lineages.get(messages);
}

/**
 * The messages the model receives (SPEC MSG-4): everything from the last summary on, and the
 * system prompt. Built once per state; the copy of message references is the one part of a step
 * that grows with the history, since the model port takes the whole list.
 */
export function completionMessages(state: AgentState): readonly ChatMessage[] {
  const cached = requestMessages.get(state);
  if (cached !== undefined) return cached;
  const { history, summaryIndex, systemIndex } = draftOf(state);
  const messages =
    summaryIndex === -1
      ? logSlice(history)
      : [
          ...(systemIndex !== -1 && systemIndex < summaryIndex
            ? [history.items[systemIndex] as ChatMessage]
            : []),
          ...logSlice(history, summaryIndex),
        ];
  const frozen = Object.freeze(messages);
  requestMessages.set(state, frozen);
  lineages.set(frozen, { items: history.items, summaryIndex });
  return frozen;
}
