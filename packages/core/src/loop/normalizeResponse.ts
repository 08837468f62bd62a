import { CompletionError } from '../errors/completionError.js';
import { canonicalArgs, type ToolCall } from '../messages/toolCall.js';
import {
  FINISH_REASONS,
  type CompletionResponse,
  type CompletionUsage,
  type FinishReason,
} from '../ports/chatCompletion.js';

const finishReasons: ReadonlySet<string> = new Set(FINISH_REASONS);

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
    throw new CompletionError('badResponse', 'the model returned no response object');
  }
  const { message, toolCalls, usage, model, finishReason, refusal, reasoning } = raw as Record<
    string,
    unknown
  >;
  if (message !== undefined && message !== null && typeof message !== 'string') {
    throw new CompletionError('badResponse', 'the model response has a message that is not text');
  }
  if (toolCalls !== undefined && toolCalls !== null && !Array.isArray(toolCalls)) {
    throw new CompletionError(
      'badResponse',
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
    const text = args === undefined || args === null ? undefined : argsText(args);
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
    ...usageOf(usage),
    ...(typeof model === 'string' ? { model } : {}),
    // An unknown finish reason is `other`; a value that is not text says nothing.
    ...(typeof finishReason === 'string'
      ? { finishReason: finishReasons.has(finishReason) ? (finishReason as FinishReason) : 'other' }
      : {}),
    ...(typeof refusal === 'string' && refusal !== '' ? { refusal } : {}),
    ...(typeof reasoning === 'string' && reasoning !== '' ? { reasoning } : {}),
  };
  return response;
}

/** Args the model sent as a value rather than text: their JSON, or a text naming what is wrong. */
function argsText(args: unknown): string {
  if (typeof args === 'string') return args;
  try {
    return JSON.stringify(args) ?? String(args);
  } catch {
    // A cyclic value has no JSON form: the call then fails on its arguments (SPEC TOOL-5).
    return '[arguments that have no JSON form]';
  }
}

/**
 * Token counts as the stream records them (SPEC EVT-6): whole numbers of at least 0. A count the
 * model left out is worked out from the others when it can be (`totalTokens` is the sum); usage
 * that does not give the prompt and completion counts is dropped rather than stored half-made.
 */
function usageOf(usage: unknown): { usage?: CompletionUsage } {
  if (usage === null || typeof usage !== 'object') return {};
  const { promptTokens, completionTokens, totalTokens } = usage as Record<string, unknown>;
  const count = (value: unknown): number | undefined =>
    typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
  const prompt = count(promptTokens);
  const completion = count(completionTokens);
  if (prompt === undefined || completion === undefined) return {};
  return {
    usage: {
      promptTokens: prompt,
      completionTokens: completion,
      totalTokens: count(totalTokens) ?? prompt + completion,
    },
  };
}
