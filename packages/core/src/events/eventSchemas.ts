import { z } from 'zod';
import type { AgentEventType } from './agentEvent.js';

// The shapes of stored event data, checked when a stream is read (SPEC EVT-4). The TypeScript
// types in agentEvent.ts are the contract; these schemas only guard the way in.

const json = z.json();
const toolCall = z.object({ id: z.string(), name: z.string(), args: z.string().optional() });
const toolOutput = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('text'), text: z.string() }),
  z.object({ kind: z.literal('fail'), text: z.string() }),
  z.object({ kind: z.literal('stop'), payload: json.optional() }),
  z.object({ kind: z.literal('agentFailed'), payload: json.optional() }),
  z.object({ kind: z.literal('feedbackRequired'), payload: json.optional() }),
]);
const stopReason = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('requestedByTool'), toolCall, payload: json.optional() }),
  z.object({ kind: z.literal('agentFailed'), payload: json.optional() }),
  z.object({ kind: z.literal('toolCallsOverLimit'), toolCall }),
  z.object({ kind: z.literal('feedbackRequired'), toolCall, payload: json.optional() }),
  z.object({ kind: z.literal('error'), message: z.string() }),
  z.object({ kind: z.literal('noNewMessages') }),
  z.object({ kind: z.literal('other'), text: z.string() }),
]);
const usage = z.object({
  promptTokens: z.number(),
  completionTokens: z.number(),
  totalTokens: z.number(),
});
const text = z.object({ text: z.string() });

/** The data schema of every event type; a type missing here is unknown. */
export const eventDataSchemas: Record<AgentEventType, z.ZodType> = {
  SystemPromptAdded: text,
  RunStarted: z.object({
    mode: z.enum(['query', 'queryOnce', 'run', 'runOnce']),
    input: z.string().optional(),
  }),
  UserMessageQueued: text,
  UserMessageAdded: text,
  SummaryAdded: text,
  ModelResponded: z.object({
    requestFingerprint: z.string(),
    response: z.object({
      message: z.string().optional(),
      toolCalls: z.array(toolCall),
      usage: usage.optional(),
      model: z.string().optional(),
    }),
  }),
  AssistantMessageAdded: z.object({
    message: z.object({
      role: z.literal('assistant'),
      text: z.string().optional(),
      toolCalls: z.array(toolCall),
    }),
  }),
  ToolCallStarted: z.object({ toolCall, idempotencyKey: z.string() }),
  ToolCallCompleted: z.object({ toolCallId: z.string(), output: toolOutput }),
  ToolCallFailed: z.object({
    toolCallId: z.string(),
    error: z.string(),
    failureCount: z.number().int().positive(),
    output: toolOutput.optional(),
  }),
  FeedbackRequested: z.object({
    toolCall,
    payload: json.optional(),
    ambiguous: z.boolean().optional(),
  }),
  FeedbackReceived: z.object({
    toolCallId: z.string(),
    feedback: z.object({ kind: z.enum(['approved', 'refused']), payload: json.optional() }),
    by: z.string().optional(),
    note: z.string().optional(),
  }),
  FeedbackConsumed: z.object({ toolCallId: z.string() }),
  AgentStopped: z.object({
    reason: stopReason,
    cause: z.enum([
      'toolRequestedStop',
      'toolReportedFailure',
      'toolCallsOverLimit',
      'feedbackRequired',
      'error',
      'assistantAnswered',
      'emptyResponse',
      'limitReached',
      'singleStep',
      'nothingNew',
      'stoppedByCaller',
    ]),
  }),
  WarningRecorded: z.object({
    code: z.string(),
    message: z.string(),
    toolCallId: z.string().optional(),
  }),
  StreamForked: z.object({ fromStream: z.string(), atRevision: z.number().int().min(-1) }),
};
