import type { AssistantMessage } from '../messages/chatMessage.js';
import type { CompletionResponse } from '../ports/chatCompletion.js';

/**
 * The assistant message an answer adds to the history, as `afterCompletion` left the answer
 * (SPEC LOOP-4): none when it has neither text, a refusal nor tool calls, so an empty answer
 * fires no `onNewMessage` and enters nothing.
 */
export function assistantMessageOf(response: CompletionResponse): AssistantMessage | undefined {
  const hasText = response.message !== undefined && response.message !== '';
  const { refusal, toolCalls } = response;
  if (!hasText && refusal === undefined && toolCalls.length === 0) return undefined;
  return {
    role: 'assistant',
    ...(hasText ? { text: response.message } : {}),
    ...(refusal === undefined ? {} : { refusal }),
    toolCalls,
  };
}
