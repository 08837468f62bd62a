import { STOP_CAUSES } from './stopReason.js';
import {
  arrayOf,
  boolean,
  flagged,
  integer,
  json,
  number,
  object,
  oneOf,
  optional,
  string,
  tagged,
  type Check,
  type Checked,
  type SameShape,
} from '../support/checks.js';
import type { ToolOutput } from '../messages/toolOutput.js';
import { FINISH_REASONS } from '../ports/chatCompletion.js';
import { HOOK_KINDS, RUN_MODES, type AgentEventType, type EventData } from './agentEvent.js';

// The shapes of stored event data, checked when a stream is read (SPEC EVT-4). Hand-written
// checks, not zod: they walk a parsed event without rebuilding it, so decoding costs about what
// JSON.parse does. The TypeScript types in agentEvent.ts are the contract; each check below must
// guarantee exactly its event's type, no field more or less (`ExactChecks` holds it to that).

// Literal lists whose types live in files of their own (tool output kinds, feedback kinds, the
// assistant role) are repeated here; `ExactChecks` fails the build when either side drifts.
const toolCall = object({ id: string, name: string, args: optional(string) });
const payload = optional(json);
/** The check of a tool call as the stream stores it. */
export const toolCallCheck = toolCall;
/** The check of a tool output as the stream stores it (SPEC MSG-3). */
export const toolOutputCheck: Check<ToolOutput> = tagged('kind', {
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
const toolOutput = toolOutputCheck;
const rawToolResult = flagged('ok', object({ output: toolOutput }), object({ error: string }));
const usage = object({ promptTokens: number, completionTokens: number, totalTokens: number });
const text = object({ text: string });
const worker = object({ id: string, host: string, pid: integer(0) });

const checks = {
  SystemPromptAdded: text,
  RunStarted: object({
    mode: oneOf(RUN_MODES),
    input: optional(string),
    worker: optional(worker),
    agent: optional(string),
    continueAfterDecision: optional(boolean),
  }),
  RunRequested: object({ agent: string, input: optional(string), by: optional(string) }),
  RunReleased: object({ worker, reason: optional(string) }),
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
      finishReason: optional(oneOf(FINISH_REASONS)),
      refusal: optional(string),
      reasoning: optional(string),
    }),
  }),
  AssistantMessageAdded: object({
    message: object({
      role: oneOf(['assistant']),
      text: optional(string),
      refusal: optional(string),
      toolCalls: arrayOf(toolCall),
    }),
  }),
  ToolCallStarted: object({
    toolCall,
    idempotencyKey: string,
    approval: optional(
      tagged('kind', {
        required: object({ error: optional(string) }),
        notRequired: object({}),
        approvedForRun: object({ toolCallId: string, by: optional(string) }),
      }),
    ),
  }),
  ToolCallCompleted: object({
    toolCallId: string,
    output: toolOutput,
    raw: optional(rawToolResult),
  }),
  ToolCallFailed: object({
    toolCallId: string,
    error: string,
    failureCount: integer(1),
    output: optional(toolOutput),
    raw: optional(rawToolResult),
  }),
  FeedbackRequested: object({
    toolCall,
    payload,
    ambiguous: optional(boolean),
    raw: optional(rawToolResult),
  }),
  FeedbackReceived: object({
    toolCallId: string,
    feedback: object({
      kind: oneOf(['approved', 'refused']),
      payload,
      reason: optional(string),
    }),
    by: optional(string),
    note: optional(string),
    scope: optional(oneOf(['run'])),
  }),
  FeedbackConsumed: object({ toolCallId: string }),
  AgentStopped: object({
    reason: stopReason,
    cause: oneOf(STOP_CAUSES),
    hook: optional(oneOf(HOOK_KINDS)),
    by: optional(string),
  }),
  StopRequested: object({
    reason: string,
    by: optional(string),
    hook: optional(oneOf(HOOK_KINDS)),
  }),
  WarningRecorded: object({ code: string, message: string, toolCallId: optional(string) }),
  StreamForked: object({ fromStream: string, atRevision: integer(-1) }),
} satisfies { readonly [T in AgentEventType]: Check<EventData<T>> };

// `Check<EventData<T>>` alone only asks that what a check guarantees be assignable to the event's
// data: a check that misses an optional field, or checks a field the type lacks, still passes.
// So each check's guarantee is also compared with its event's type, both ways.

/** The event types whose check and TypeScript type differ; `never` when every one matches. */
type Mismatched = {
  [T in AgentEventType]: SameShape<Checked<(typeof checks)[T]>, EventData<T>> extends true
    ? never
    : T;
}[AgentEventType];

/** The type of the table when every check matches its type; otherwise names the mismatches. */
type ExactChecks = [Mismatched] extends [never]
  ? { readonly [T in AgentEventType]: Check<EventData<T>> }
  : { readonly [T in AgentEventType]: Check<EventData<T>> } & {
      readonly checkAndTypeDifferFor: Mismatched;
    };

/** The data check of every event type; a type missing here is unknown. */
export const eventDataSchemas: ExactChecks = checks;
