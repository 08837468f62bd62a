import type { ChatMessage } from '../messages/chatMessage.js';
import type { ToolCall } from '../messages/toolCall.js';
import type { JsonObject } from '../support/json.js';
import type { Logger } from './logger.js';

/** What the model is told about one tool: OpenAI strict function calling accepts it. */
export interface ToolSpec {
  readonly name: string;
  readonly description: string;
  /** A JSON schema of the arguments object. */
  readonly parameters: JsonObject;
}

/**
 * Settings of one request, for the model to apply over its own (SPEC LOOP-12): set per request
 * by a `beforeCompletion` hook. They are part of the request, so of its fingerprint (SPEC RPL-1).
 */
export interface CompletionSettings {
  readonly temperature?: number | undefined;
  readonly maxCompletionTokens?: number | undefined;
  readonly reasoningEffort?: 'minimal' | 'low' | 'medium' | 'high' | undefined;
  readonly parallelToolCalls?: boolean | undefined;
  /** `auto`, `none`, `required`, or the name of the one tool the model must call. */
  readonly toolChoice?: 'auto' | 'none' | 'required' | { readonly name: string } | undefined;
  readonly seed?: number | undefined;
  /** Provider fields passed through as they are, for what the options above do not name. */
  readonly extraBody?: JsonObject | undefined;
}

/** One request to the model: the history it sees, every tool spec (ordered by name), settings. */
export interface CompletionRequest {
  readonly messages: readonly ChatMessage[];
  readonly tools: readonly ToolSpec[];
  readonly settings?: CompletionSettings | undefined;
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
  /**
   * The agent's logger, with the stream id in each line's details: where a model reports what the
   * caller would not see otherwise (the OpenAI adapter: each retried request). A model may ignore
   * it; a caller may leave it out.
   */
  readonly logger?: Logger;
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
