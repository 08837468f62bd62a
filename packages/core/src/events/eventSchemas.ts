import { STOP_CAUSES } from '../agent/stopReason.js';
import {
  arrayOf,
  boolean,
  integer,
  json,
  number,
  object,
  oneOf,
  optional,
  string,
  tagged,
  type Check,
} from '../support/checks.js';
import type { AgentEventType, EventData } from './agentEvent.js';

// The shapes of stored event data, checked when a stream is read (SPEC EVT-4). Hand-written
// checks, not zod: they walk a parsed event without rebuilding it, so decoding costs about what
// JSON.parse does. The TypeScript types in agentEvent.ts are the contract; `eventDataSchemas`
// below must check every one of them (the compiler holds it to that).

const toolCall = object({ id: string, name: string, args: optional(string) });
const payload = optional(json);
const toolOutput = tagged('kind', {
  text: object({ text: string }),
  fail: object({ text: string }),
  stop: object({ payload }),
  agentFailed: object({ payload }),
  feedbackRequired: object({ payload }),
});
const stopReason = tagged('kind', {
  requestedByTool: object({ toolCall, payload }),
  agentFailed: object({ payload }),
  toolCallsOverLimit: object({ toolCall }),
  feedbackRequired: object({ toolCall, payload }),
  error: object({ message: string }),
  noNewMessages: object({}),
  other: object({ text: string }),
});
const usage = object({ promptTokens: number, completionTokens: number, totalTokens: number });
const text = object({ text: string });

/** The data check of every event type; a type missing here is unknown. */
export const eventDataSchemas: { readonly [T in AgentEventType]: Check<EventData<T>> } = {
  SystemPromptAdded: text,
  RunStarted: object({
    mode: oneOf(['query', 'queryOnce', 'run', 'runOnce']),
    input: optional(string),
  }),
  UserMessageQueued: text,
  UserMessageAdded: text,
  SummaryAdded: text,
  ModelResponded: object({
    requestFingerprint: string,
    response: object({
      message: optional(string),
      toolCalls: arrayOf(toolCall),
      usage: optional(usage),
      model: optional(string),
    }),
  }),
  AssistantMessageAdded: object({
    message: object({
      role: oneOf(['assistant']),
      text: optional(string),
      toolCalls: arrayOf(toolCall),
    }),
  }),
  ToolCallStarted: object({ toolCall, idempotencyKey: string }),
  ToolCallCompleted: object({ toolCallId: string, output: toolOutput }),
  ToolCallFailed: object({
    toolCallId: string,
    error: string,
    failureCount: integer(1),
    output: optional(toolOutput),
  }),
  FeedbackRequested: object({ toolCall, payload, ambiguous: optional(boolean) }),
  FeedbackReceived: object({
    toolCallId: string,
    feedback: object({ kind: oneOf(['approved', 'refused']), payload }),
    by: optional(string),
    note: optional(string),
  }),
  FeedbackConsumed: object({ toolCallId: string }),
  AgentStopped: object({ reason: stopReason, cause: oneOf(STOP_CAUSES) }),
  WarningRecorded: object({ code: string, message: string, toolCallId: optional(string) }),
  StreamForked: object({ fromStream: string, atRevision: integer(-1) }),
};
