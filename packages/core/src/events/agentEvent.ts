import type { AssistantMessage } from '../messages/chatMessage.js';
import type { ToolCall } from '../messages/toolCall.js';
import type { ToolFeedback } from '../messages/toolFeedback.js';
import type { ToolOutput } from '../messages/toolOutput.js';
import type { CompletionResponse } from '../ports/chatCompletion.js';
import type { EventMetadata } from '../ports/eventStore.js';
import type { StopCause, StopReason } from './stopReason.js';

/** Every hook kind (SPEC LOOP-9), listed once: `HookKind` and the check of a stop's `hook` derive from it. */
export const HOOK_KINDS = [
  'beforeAll',
  'onStart',
  'beforeCompletion',
  'afterCompletion',
  'beforeTool',
  'afterTool',
  'afterEach',
  'onNewMessage',
  'onStop',
  'onStream',
] as const;

/** The name of a hook kind. */
export type HookKind = (typeof HOOK_KINDS)[number];
import type { JsonValue } from '../support/json.js';

/** One event of the stream: `{ type, data, metadata }`, plain JSON throughout (SPEC EVT-2). */
export interface DomainEvent<T extends string, D> {
  readonly type: T;
  readonly data: D;
  readonly metadata: EventMetadata;
}

/** Which command started a run. */
export type RunMode = (typeof RUN_MODES)[number];

/** Every run mode, listed once: the type above and the check of stored events derive from it. */
export const RUN_MODES = ['query', 'queryOnce', 'run', 'runOnce'] as const;

/**
 * A tool's own result before `afterTool`/`onNewMessage` hooks, as recorded (SPEC RPL-5): what it
 * returned, or the error text it threw.
 */
export type RawToolResult =
  | { readonly ok: true; readonly output: ToolOutput }
  | { readonly ok: false; readonly error: string };

/** The system prompt entered the history (once, on the agent's first run). */
export type SystemPromptAdded = DomainEvent<'SystemPromptAdded', { readonly text: string }>;
/** The worker that took a run, or gave it back: which process on which machine (SPEC WRK-7). */
export interface WorkerIdentity {
  readonly id: string;
  readonly host: string;
  readonly pid: number;
}

/**
 * The caller gave a command; every call of query/queryOnce/run/runOnce appends one. `worker`
 * names the worker that took the run (its claim, SPEC WRK-3, WRK-7), when a worker did; `agent`
 * the registered agent name the run runs under, and `continueAfterDecision: false` that its agent
 * opted out of being continued by a worker after a decision (SPEC WRK-9), when it did.
 */
export type RunStarted = DomainEvent<
  'RunStarted',
  {
    readonly mode: RunMode;
    readonly input?: string;
    readonly worker?: WorkerIdentity;
    readonly agent?: string;
    readonly continueAfterDecision?: boolean;
  }
>;
/**
 * Someone asked for a run of the registered agent `agent` (SPEC WRK-1, EVT-7); a worker that
 * has the agent takes it. Its `input` is the run's query text; `by` says who asked.
 */
export type RunRequested = DomainEvent<
  'RunRequested',
  { readonly agent: string; readonly input?: string; readonly by?: string }
>;
/**
 * A worker gave a run back before it ended on its own (SPEC WRK-5, EVT-7): its lease ends now,
 * and another worker may continue the run at once.
 */
export type RunReleased = DomainEvent<
  'RunReleased',
  { readonly worker: WorkerIdentity; readonly reason?: string }
>;
/** A user text waits to enter the history (it stays queued while tool calls are open). */
export type UserMessageQueued = DomainEvent<'UserMessageQueued', { readonly text: string }>;
/** The oldest queued user text entered the history. */
export type UserMessageAdded = DomainEvent<'UserMessageAdded', { readonly text: string }>;
/** A summary entered the history; the model sees nothing before it but system messages. */
export type SummaryAdded = DomainEvent<'SummaryAdded', { readonly text: string }>;
/** The model answered a completion; `response` is the raw answer, before hooks. */
export type ModelResponded = DomainEvent<
  'ModelResponded',
  { readonly requestFingerprint: string; readonly response: CompletionResponse }
>;
/** An assistant message entered the history, as hooks left it. */
export type AssistantMessageAdded = DomainEvent<
  'AssistantMessageAdded',
  { readonly message: AssistantMessage }
>;
/**
 * Whether a call of an approval gate waits for a person, judged before its start was written
 * (SPEC HITL-13, HITL-15): `required` (the gate's `when` said yes, or failed: `error` says how),
 * `notRequired` (`when` said no), or `approvedForRun` (a decision on the earlier call
 * `toolCallId`, by `by`, approved the tool for the rest of the run).
 */
export type ApprovalVerdict =
  | { readonly kind: 'required'; readonly error?: string }
  | { readonly kind: 'notRequired' }
  | { readonly kind: 'approvedForRun'; readonly toolCallId: string; readonly by?: string };

/**
 * A tool invocation began; `idempotencyKey` is `streamId:toolCallId` (SPEC TOOL-7). `approval` is
 * the verdict of an approval gate with a condition or under a decision for the run (SPEC
 * HITL-13, HITL-15); a plain gate's call, which always waits, records none.
 */
export type ToolCallStarted = DomainEvent<
  'ToolCallStarted',
  {
    readonly toolCall: ToolCall;
    readonly idempotencyKey: string;
    readonly approval?: ApprovalVerdict;
  }
>;
/**
 * A tool call's output entered the history, as hooks left it. `raw` is the tool's own result,
 * present only when hooks changed it (SPEC RPL-5).
 */
export type ToolCallCompleted = DomainEvent<
  'ToolCallCompleted',
  { readonly toolCallId: string; readonly output: ToolOutput; readonly raw?: RawToolResult }
>;
/**
 * A tool call failed; its error text entered the history as a `fail` output (or `output`, when
 * an `onNewMessage` hook replaced it). `failureCount` counts failures of the same name + args.
 * `raw` is the tool's own result, present only when hooks changed it (SPEC RPL-5).
 */
export type ToolCallFailed = DomainEvent<
  'ToolCallFailed',
  {
    readonly toolCallId: string;
    readonly error: string;
    readonly failureCount: number;
    readonly output?: ToolOutput;
    readonly raw?: RawToolResult;
  }
>;
/**
 * A tool call asked for a person's decision and stays open. `ambiguous` marks a request the loop
 * made itself for a call that was started but never answered before a crash (SPEC TOOL-7). `raw`
 * is the tool's own result, present only when hooks changed it (SPEC RPL-5).
 */
export type FeedbackRequested = DomainEvent<
  'FeedbackRequested',
  {
    readonly toolCall: ToolCall;
    readonly payload?: JsonValue;
    readonly ambiguous?: boolean;
    readonly raw?: RawToolResult;
  }
>;
/**
 * How far a decision reaches (SPEC HITL-15): the one call it names (`call`, the default), or, for
 * an approval, every later call of the same tool until the run that follows it stops (`run`).
 */
export type DecisionScope = 'call' | 'run';

/**
 * A person decided on an open tool call; `by` and `note` say who and why (SPEC HITL-10); `scope`
 * is recorded only when the decision covers the rest of the run (SPEC HITL-15).
 */
export type FeedbackReceived = DomainEvent<
  'FeedbackReceived',
  {
    readonly toolCallId: string;
    readonly feedback: ToolFeedback;
    readonly by?: string;
    readonly note?: string;
    readonly scope?: 'run';
  }
>;
/** A tool read a decision; it applies to that one invocation (SPEC HITL-3). */
export type FeedbackConsumed = DomainEvent<'FeedbackConsumed', { readonly toolCallId: string }>;
/**
 * The run ended; `cause` says exactly why (SPEC LOOP-6); `hook` names the hook that asked for it,
 * `by` the person whose stop request it honours (SPEC HITL-12).
 */
export type AgentStopped = DomainEvent<
  'AgentStopped',
  {
    readonly reason: StopReason;
    readonly cause: StopCause;
    readonly hook?: HookKind;
    readonly by?: string;
  }
>;
/**
 * Someone asked the agent to stop (SPEC EVT-7): the caller's `agent.stop()`, a hook (`hook`), or a
 * person in any process (`by`, SPEC HITL-12). It is written before the `AgentStopped` it causes:
 * a run honours it at its next step boundary with `other(reason)`, a pending agent at once.
 */
export type StopRequested = DomainEvent<
  'StopRequested',
  { readonly reason: string; readonly by?: string; readonly hook?: HookKind }
>;
/** Something the auditor should see, such as an approval shadowed by a sibling (SPEC HITL-5). */
export type WarningRecorded = DomainEvent<
  'WarningRecorded',
  { readonly code: string; readonly message: string; readonly toolCallId?: string }
>;
/** This stream continues `fromStream` as it was at `atRevision` (SPEC RES-2). */
export type StreamForked = DomainEvent<
  'StreamForked',
  { readonly fromStream: string; readonly atRevision: number }
>;

/** Every event an agent's stream can hold (SPEC EVT-3). */
export type AgentEvent =
  | SystemPromptAdded
  | RunRequested
  | RunStarted
  | RunReleased
  | UserMessageQueued
  | UserMessageAdded
  | SummaryAdded
  | ModelResponded
  | AssistantMessageAdded
  | ToolCallStarted
  | ToolCallCompleted
  | ToolCallFailed
  | FeedbackRequested
  | FeedbackReceived
  | FeedbackConsumed
  | AgentStopped
  | StopRequested
  | WarningRecorded
  | StreamForked;

/** The name of an event type. */
export type AgentEventType = AgentEvent['type'];

/**
 * The events another process, or the caller's own code, may write while a run works on the
 * stream (SPEC HITL-10, HITL-12, EVT-7): a run takes them in and goes on, where any other foreign
 * event means another writer owns the stream. Replay gives them again where they were recorded.
 */
export const FOREIGN_EVENT_TYPES = ['FeedbackReceived', 'StopRequested'] as const;

/** An event type another process may write during a run. */
export type ForeignEventType = (typeof FOREIGN_EVENT_TYPES)[number];

/** True for an event another process may write during a run (see {@link FOREIGN_EVENT_TYPES}). */
export function isForeignEventType(type: string): type is ForeignEventType {
  return (FOREIGN_EVENT_TYPES as readonly string[]).includes(type);
}

/** The data of the event of type `T`. */
export type EventData<T extends AgentEventType> = Extract<AgentEvent, { type: T }>['data'];

/** An event before it has metadata: what the loop decides to append. */
export type PendingEvent = {
  [T in AgentEventType]: { readonly type: T; readonly data: EventData<T> };
}[AgentEventType];

/**
 * The schema version written into new events (SPEC EVT-5). Older stored versions are upgraded on
 * read by the upcasters in `upcasters.ts`. Version 2 added `raw` to ToolCallCompleted,
 * ToolCallFailed and FeedbackRequested, and `hook` to AgentStopped. Version 3 added the event
 * StopRequested, `by` to AgentStopped, the finish reason, refusal and reasoning to
 * ModelResponded, a refusal to assistant messages, and three stop causes. Version 4 records every
 * stop request (SPEC EVT-7): `hook` on StopRequested, and a StopRequested before every stop the
 * caller or a hook asked for, also on an agent that was not running; and the workers' events
 * (SPEC EVT-7, WRK-1, WRK-5, WRK-7): RunRequested, RunReleased, and `worker` on RunStarted;
 * and the approval policies (SPEC HITL-13–15): `approval` on ToolCallStarted, `scope` on
 * FeedbackReceived, `reason` on a decision. Version 4 is not released yet, so these need no
 * upcaster.
 */
export const CURRENT_SCHEMA_VERSION = 4;
