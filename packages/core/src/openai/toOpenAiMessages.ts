import type {
  ChatCompletionFunctionTool,
  ChatCompletionMessageParam,
} from 'openai/resources/chat/completions';
import type { ChatMessage } from '../messages/chatMessage.js';
import type { ToolOutput } from '../messages/toolOutput.js';
import type { ToolSpec } from '../ports/chatCompletion.js';

/** The text put before a summary, which OpenAI receives as a `user` message. */
const summaryPrefix = 'Summary of the conversation so far:\n';

/**
 * Our history as OpenAI chat messages. A summary becomes a `user` message starting with
 * `Summary of the conversation so far:\n` (OpenAI has no summary role, and a late `system`
 * message is weighted differently by some models); a tool output becomes a `tool` message.
 */
export function toOpenAiMessages(messages: readonly ChatMessage[]): ChatCompletionMessageParam[] {
  return messages.map((message): ChatCompletionMessageParam => {
    switch (message.role) {
      case 'system':
        return { role: 'system', content: message.text };
      case 'user':
        return { role: 'user', content: message.text };
      case 'summary':
        return { role: 'user', content: `${summaryPrefix}${message.text}` };
      case 'assistant': {
        const hasText = message.text !== undefined && message.text !== '';
        const hasCalls = message.toolCalls.length > 0;
        return {
          role: 'assistant',
          // OpenAI requires content unless there are tool calls: null then, '' for an empty turn.
          content: hasText ? (message.text ?? null) : hasCalls || message.refusal ? null : '',
          // The model's own refusal goes back as its refusal (SPEC LOOP-11).
          ...(message.refusal === undefined ? {} : { refusal: message.refusal }),
          ...(hasCalls
            ? {
                tool_calls: message.toolCalls.map((call) => ({
                  id: call.id,
                  type: 'function' as const,
                  function: { name: call.name, arguments: call.args ?? '{}' },
                })),
              }
            : {}),
        };
      }
      case 'tool':
        return {
          role: 'tool',
          tool_call_id: message.toolCall.id,
          content: toolOutputText(message.output),
        };
    }
  });
}

/** Tool specs as OpenAI strict function tools (an empty list stays empty: omit `tools` then). */
export function toOpenAiTools(tools: readonly ToolSpec[]): ChatCompletionFunctionTool[] {
  return tools.map((tool) => ({
    type: 'function',
    function: {
      name: tool.name,
      description: tool.description,
      parameters: tool.parameters,
      strict: true,
    },
  }));
}

function toolOutputText(output: ToolOutput): string {
  switch (output.kind) {
    case 'text':
    case 'fail':
      return output.text;
    case 'stop':
    case 'agentFailed':
    case 'feedbackRequired':
      return output.payload === undefined ? '' : JSON.stringify(output.payload);
  }
}
