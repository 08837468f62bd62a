import type { CompletionUsage as OpenAiUsage } from 'openai/resources/completions';
import type {
  ChatCompletion as OpenAiCompletion,
  ChatCompletionChunk,
} from 'openai/resources/chat/completions';
import { CompletionError } from '../errors/completionError.js';
import type { ToolCall } from '../messages/toolCall.js';
import type { CompletionResponse, CompletionUsage, FinishReason } from '../ports/chatCompletion.js';

/**
 * The first choice of an OpenAI chat completion as our response: its text, its refusal apart
 * from text, its `function` tool calls (empty arguments are left out), the finish reason,
 * reasoning content when the provider sends it, usage and model (SPEC LOOP-11). A
 * completion without choices is an `AgentError('completionFailed')`.
 */
export function fromOpenAiResponse(completion: OpenAiCompletion): CompletionResponse {
  const choice = completion.choices[0];
  if (choice === undefined) {
    throw new CompletionError('badResponse', 'openai: the response has no choices');
  }
  const { content, refusal, tool_calls: calls = [] } = choice.message;
  const toolCalls = calls.flatMap((call) =>
    call.type === 'function'
      ? [toolCall(call.id, call.function.name, call.function.arguments)]
      : [],
  );
  // DeepSeek and others send their reasoning beside the content, in a field OpenAI does not have.
  const reasoning = (choice.message as { reasoning_content?: unknown }).reasoning_content;
  return response(content, toolCalls, completion.usage, completion.model, {
    finishReason: choice.finish_reason,
    refusal,
    reasoning: typeof reasoning === 'string' ? reasoning : undefined,
  });
}

/**
 * Accumulates a streamed completion (first choice only) into the same shape as
 * {@link fromOpenAiResponse}: text deltas are joined and each is passed to `onChunk`, tool-call
 * fragments are joined by their `index`. A stream without any choice is a `completionFailed` error.
 */
export async function fromOpenAiStream(
  chunks: AsyncIterable<ChatCompletionChunk>,
  onChunk?: (delta: string) => void,
): Promise<CompletionResponse> {
  let content: string | undefined;
  let refusal: string | undefined;
  let reasoning: string | undefined;
  let finishReason: string | null | undefined;
  let sawChoice = false;
  let usage: OpenAiUsage | undefined;
  let model: string | undefined;
  const calls = new Map<number, { id: string; name: string; args: string; skip: boolean }>();
  for await (const chunk of chunks) {
    if (model === undefined && chunk.model) model = chunk.model;
    if (chunk.usage) usage = chunk.usage;
    for (const choice of chunk.choices) {
      if (choice.index !== 0) continue;
      sawChoice = true;
      const { delta } = choice;
      if (typeof delta.content === 'string' && delta.content !== '') {
        content = (content ?? '') + delta.content;
        onChunk?.(delta.content);
      }
      if (typeof delta.refusal === 'string') refusal = (refusal ?? '') + delta.refusal;
      const thought = (delta as { reasoning_content?: unknown }).reasoning_content;
      if (typeof thought === 'string') reasoning = (reasoning ?? '') + thought;
      if (choice.finish_reason) finishReason = choice.finish_reason;
      for (const fragment of delta.tool_calls ?? []) {
        let call = calls.get(fragment.index);
        if (call === undefined) {
          call = { id: '', name: '', args: '', skip: false };
          calls.set(fragment.index, call);
        }
        if (fragment.type !== undefined && (fragment.type as string) !== 'function') {
          call.skip = true;
        }
        if (fragment.id) call.id = fragment.id;
        if (fragment.function?.name) call.name = fragment.function.name;
        if (fragment.function?.arguments) call.args += fragment.function.arguments;
      }
    }
  }
  if (!sawChoice) {
    throw new CompletionError('badResponse', 'openai: the streamed response has no choices');
  }
  // A stream cut short (a gateway that drops the connection quietly) is not an answer.
  if (finishReason === undefined || finishReason === null) {
    throw new CompletionError(
      'badResponse',
      'openai: the streamed answer ended without a finish reason, so it may be cut short',
    );
  }
  for (const [index, call] of calls) {
    if (call.skip) continue;
    const missing = [call.id === '' ? 'id' : '', call.name === '' ? 'name' : ''].filter(Boolean);
    if (missing.length > 0) {
      throw new CompletionError(
        'badResponse',
        `openai: the streamed tool call at index ${index} never got its ${missing.join(' and ')}`,
      );
    }
  }
  const toolCalls = [...calls.entries()]
    .sort(([a], [b]) => a - b)
    .flatMap(([, call]) => (call.skip ? [] : [toolCall(call.id, call.name, call.args)]));
  return response(content, toolCalls, usage, model, { finishReason, refusal, reasoning });
}

function toolCall(id: string, name: string, args: string | undefined): ToolCall {
  return { id, name, ...(args === undefined || args === '' ? {} : { args }) };
}

function response(
  message: string | null | undefined,
  toolCalls: ToolCall[],
  usage: OpenAiUsage | null | undefined,
  model: string | undefined,
  extra: {
    readonly finishReason: string | null | undefined;
    readonly refusal: string | null | undefined;
    readonly reasoning: string | undefined;
  },
): CompletionResponse {
  const { refusal, reasoning } = extra;
  const finishReason = extra.finishReason ? finishReasonOf(extra.finishReason) : undefined;
  return {
    ...(typeof message === 'string' && message !== '' ? { message } : {}),
    toolCalls,
    ...(usage ? { usage: fromUsage(usage) } : {}),
    ...(model ? { model } : {}),
    ...(finishReason === undefined ? {} : { finishReason }),
    ...(typeof refusal === 'string' && refusal !== '' ? { refusal } : {}),
    ...(reasoning === undefined || reasoning === '' ? {} : { reasoning }),
  };
}

/** OpenAI's `finish_reason` in our words (SPEC LOOP-11). */
function finishReasonOf(reason: string): FinishReason {
  switch (reason) {
    case 'stop':
      return 'stop';
    case 'length':
      return 'length';
    case 'tool_calls':
    case 'function_call':
      return 'toolCalls';
    case 'content_filter':
      return 'contentFilter';
    default:
      return 'other';
  }
}

function fromUsage(usage: OpenAiUsage): CompletionUsage {
  return {
    promptTokens: usage.prompt_tokens,
    completionTokens: usage.completion_tokens,
    totalTokens: usage.total_tokens,
  };
}
