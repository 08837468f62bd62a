import type { ChatMessage } from '../messages/chatMessage.js';
import type { ToolCall } from '../messages/toolCall.js';
import type { JsonObject } from '../support/json.js';

/** What the model is told about one tool: OpenAI strict function calling accepts it. */
export interface ToolSpec {
  readonly name: string;
  readonly description: string;
  /** A JSON schema of the arguments object. */
  readonly parameters: JsonObject;
}

/** One request to the model: the history it sees and every tool spec, ordered by name. */
export interface CompletionRequest {
  readonly messages: readonly ChatMessage[];
  readonly tools: readonly ToolSpec[];
}

/** Token counts a model may report. */
export interface CompletionUsage {
  readonly promptTokens: number;
  readonly completionTokens: number;
  readonly totalTokens: number;
}

/** Every finish reason, listed once (SPEC LOOP-11). */
export const FINISH_REASONS = ['stop', 'length', 'toolCalls', 'contentFilter', 'other'] as const;

/**
 * Why the model stopped generating (SPEC LOOP-11): it was done, it hit the token limit, it
 * called tools, a content filter cut it, or another reason the provider gave.
 */
export type FinishReason = (typeof FINISH_REASONS)[number];

/**
 * The model's answer: optional text and zero or more tool calls; the finish reason, a refusal
 * apart from text, and reasoning content when the provider gives them (SPEC LOOP-11).
 */
export interface CompletionResponse {
  readonly message?: string;
  readonly toolCalls: readonly ToolCall[];
  readonly usage?: CompletionUsage;
  readonly model?: string;
  readonly finishReason?: FinishReason;
  /** The model declined to answer; this is its refusal text, not an answer. */
  readonly refusal?: string;
  /** Reasoning content (DeepSeek's `reasoning_content`); kept in the stream, not sent back. */
  readonly reasoning?: string;
}

/** Options of one completion call. */
export interface CompletionOptions {
  readonly signal?: AbortSignal;
  /** Called with each streamed text delta, for models that stream. */
  readonly onChunk?: (delta: string) => void;
}

/** The model port (the OpenAI adapter, the scripted and replay models implement it). */
export interface ChatCompletion {
  complete(request: CompletionRequest, options: CompletionOptions): Promise<CompletionResponse>;
  /**
   * The secret values this model was configured with (API keys, tokens), for masking in
   * recordings, stored events and errors (SPEC RPL-3). Never enumerable.
   */
  readonly secrets?: () => readonly string[];
}
