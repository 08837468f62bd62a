import type { ToolCall } from './toolCall.js';
import type { ToolOutput } from './toolOutput.js';

/** A message of the history the model sees (SPEC MSG-1). */
export type ChatMessage =
  SystemMessage | UserMessage | AssistantMessage | ToolOutputMessage | SummaryMessage;

/** The system prompt. */
export interface SystemMessage {
  readonly role: 'system';
  readonly text: string;
}

/** A person's message. */
export interface UserMessage {
  readonly role: 'user';
  readonly text: string;
}

/** What the model said: optional text plus zero or more tool calls. */
export interface AssistantMessage {
  readonly role: 'assistant';
  readonly text?: string;
  /** The model's refusal, apart from text (SPEC LOOP-11). */
  readonly refusal?: string;
  readonly toolCalls: readonly ToolCall[];
}

/** The output of one tool call; it carries the whole call. */
export interface ToolOutputMessage {
  readonly role: 'tool';
  readonly toolCall: ToolCall;
  readonly output: ToolOutput;
}

/** A summary; the model sees nothing before the last one but system messages (SPEC MSG-4). */
export interface SummaryMessage {
  readonly role: 'summary';
  readonly text: string;
}

/** The messages sent to the model: everything, except what precedes the last summary (system messages stay). */
export function messagesForCompletion(history: readonly ChatMessage[]): ChatMessage[] {
  let lastSummary = -1;
  history.forEach((message, index) => {
    if (message.role === 'summary') lastSummary = index;
  });
  return history.filter((message, index) => index >= lastSummary || message.role === 'system');
}
