import { AgentError } from '../errors/agentError.js';
import { canonicalArgs, type ToolCall } from '../messages/toolCall.js';
import type { CompletionResponse } from '../ports/chatCompletion.js';
import { findNonJson } from '../support/json.js';

/**
 * Makes a model's answer safe to record: tool-call args canonicalised once (SPEC MSG-2), a call
 * without id (or with a repeated one) gets a fresh id, a call without a name keeps an empty name
 * (invoking it is then a recorded failure, SPEC TOOL-6), an id used earlier in the stream is
 * replaced too. An answer that is not a response at all
 * is a `completionFailed` error.
 */
export function normalizeResponse(
  raw: unknown,
  newId: () => string,
  isUsedId: (id: string) => boolean = () => false,
): CompletionResponse {
  if (raw === null || typeof raw !== 'object') {
    throw new AgentError('completionFailed', 'the model returned no response object');
  }
  const { message, toolCalls, usage, model } = raw as Record<string, unknown>;
  if (message !== undefined && message !== null && typeof message !== 'string') {
    throw new AgentError('completionFailed', 'the model response has a message that is not text');
  }
  if (toolCalls !== undefined && toolCalls !== null && !Array.isArray(toolCalls)) {
    throw new AgentError(
      'completionFailed',
      'the model response has toolCalls that are not a list',
    );
  }
  const seen = new Set<string>();
  const calls = ((toolCalls ?? []) as unknown[]).map((call): ToolCall => {
    const { id, name, args } = (call ?? {}) as Record<string, unknown>;
    let callId = typeof id === 'string' && id !== '' ? id : newId();
    // Some gateways reuse ids across completions; an id must name one call in the whole stream.
    while (seen.has(callId) || isUsedId(callId)) callId = newId();
    seen.add(callId);
    const text =
      args === undefined || args === null
        ? undefined
        : typeof args === 'string'
          ? args
          : JSON.stringify(args);
    const canonical = canonicalArgs(text);
    return {
      id: callId,
      name: typeof name === 'string' ? name : '',
      ...(canonical === undefined ? {} : { args: canonical }),
    };
  });
  const response: CompletionResponse = {
    ...(typeof message === 'string' ? { message } : {}),
    toolCalls: calls,
    ...(usage !== undefined && usage !== null && findNonJson(usage) === undefined
      ? { usage: usage as CompletionResponse['usage'] & object }
      : {}),
    ...(typeof model === 'string' ? { model } : {}),
  };
  return response;
}
