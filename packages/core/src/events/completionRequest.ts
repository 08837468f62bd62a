import type { ChatMessage } from '../messages/chatMessage.js';
import type { CompletionRequest, ToolSpec } from '../ports/chatCompletion.js';
import type { AgentState } from './agentState.js';
import { draftOf } from './stateDraft.js';
import { completionMessages } from './stateQueries.js';

/**
 * Where the messages of a request that `completionRequest` built come from, read without building
 * them: the storage of one append-only history, and which of its items the list holds. Two
 * sources over the same `items` are prefixes of each other when their `summaryIndex` is the same.
 */
export interface MessagesSource {
  readonly items: readonly ChatMessage[];
  readonly summaryIndex: number;
  /** How many messages the request holds. */
  readonly length: number;
  /** The request's message at `index` (below `length`). */
  at(index: number): ChatMessage;
}

const sources = new WeakMap<object, MessagesSource>();

/**
 * The request the model is asked with (SPEC MSG-4): the messages `completionMessages` gives and
 * the tool specs. The list of messages is built the first time someone reads `messages` (the
 * model, a hook, a serialiser): it is a copy of the history, O(history), and a step that nobody
 * reads it in costs O(1) whatever the length of the run. The fingerprint reads the history through
 * `messagesSource`, not through the list.
 */
export function completionRequest(
  state: AgentState,
  tools: readonly ToolSpec[],
): CompletionRequest {
  const request = {
    get messages(): readonly ChatMessage[] {
      return completionMessages(state);
    },
    tools,
  };
  sources.set(request, sourceOf(state));
  return request;
}

/** Where the messages of `request` come from, when `completionRequest` built it unchanged. */
export function messagesSource(request: CompletionRequest): MessagesSource | undefined {
  return sources.get(request);
}

function sourceOf(state: AgentState): MessagesSource {
  const { history, summaryIndex, systemIndex } = draftOf(state);
  const { items } = history;
  if (summaryIndex === -1)
    return {
      items,
      summaryIndex,
      length: history.length,
      at: (index) => items[index] as ChatMessage,
    };
  // The system prompt goes first when it came before the summary.
  const system = systemIndex !== -1 && systemIndex < summaryIndex ? 1 : 0;
  return {
    items,
    summaryIndex,
    length: system + history.length - summaryIndex,
    at: (index) =>
      (system === 1 && index === 0
        ? items[systemIndex]
        : items[summaryIndex + index - system]) as ChatMessage,
  };
}
