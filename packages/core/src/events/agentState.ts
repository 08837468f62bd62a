import type { StopCause, StopReason } from './stopReason.js';
import type { ChatMessage } from '../messages/chatMessage.js';
import type { ToolCall } from '../messages/toolCall.js';
import type { ToolFeedback } from '../messages/toolFeedback.js';
import type { JsonValue } from '../support/json.js';
import type { ApprovalVerdict, HookKind, RunMode, WorkerIdentity } from './agentEvent.js';
import { emptyDraft, publish } from './stateDraft.js';

/**
 * Where one tool call stands: `open` (never started), `started` (running, or ambiguous when the
 * process died), `waiting` (asked for feedback), or answered (`completed`/`failed`).
 */
export type ToolCallStatus = 'open' | 'started' | 'waiting' | 'completed' | 'failed';

/** The derived record of one tool call. */
export interface ToolCallState {
  readonly toolCall: ToolCall;
  readonly status: ToolCallStatus;
  /** How often it was started; a resumed call is started again. */
  readonly invocations: number;
  /** The payload of its last feedback request. */
  readonly feedbackPayload?: JsonValue;
  /** When it last asked for feedback (its last `FeedbackRequested`, ISO time), for the inbox. */
  readonly askedAt?: string;
  /** Set when the loop itself asked, because the call was ambiguous after a crash (SPEC TOOL-7). */
  readonly ambiguous?: boolean;
  /** Set when a sibling's output shadowed this call's approval (SPEC HITL-5). */
  readonly shadowed?: boolean;
  /** The approval verdict its last start recorded, if it recorded one (SPEC HITL-13, HITL-15). */
  readonly approval?: ApprovalVerdict;
}

/**
 * A decision that approved a tool for the rest of a run (SPEC HITL-15): the call it was given on
 * and who gave it. `active` once the run that follows the decision has started; the approval
 * ends when that run stops.
 */
export interface RunApproval {
  readonly toolCallId: string;
  readonly by?: string;
  readonly active: boolean;
}

/** A decision that no invocation has consumed yet. */
export interface PendingDecision {
  readonly feedback: ToolFeedback;
  readonly by?: string;
  readonly note?: string;
}

/**
 * The agent's state: `evolve` folded over its stream and nothing else (SPEC EVT-1). Plain JSON,
 * so a fold in another process is deep-equal.
 */
export interface AgentState {
  readonly status: 'pending' | 'running' | 'stopped';
  readonly stopReason?: StopReason;
  readonly stopCause?: StopCause;
  /** Revision of the last folded event; -1 for an empty stream. */
  readonly revision: number;
  /** When the last event was stored (ISO time from the injected clock). */
  readonly lastEventAt?: string;
  readonly runs: number;
  readonly runMode?: RunMode;
  readonly systemPromptAdded: boolean;
  readonly history: readonly ChatMessage[];
  /** User texts waiting to enter the history, oldest first. */
  readonly queued: readonly string[];
  /** Every tool call the model made, by id. */
  readonly toolCalls: { readonly [toolCallId: string]: ToolCallState };
  readonly feedback: { readonly [toolCallId: string]: PendingDecision };
  /** Failures by tool name + canonical args, for the agent's whole life (SPEC TOOL-3). */
  readonly failureCounts: { readonly [toolCallHash: string]: number };
  /** Completions in the current run (SPEC LOOP-5). */
  readonly completionsInRun: number;
  /** History length when the model was last asked: later messages are new (SPEC LOOP-3). */
  readonly historyLengthAtLastCompletion: number;
  /** The last completion answered neither text nor tool calls. */
  readonly lastResponseEmpty: boolean;
  readonly forkedFrom?: { readonly fromStream: string; readonly atRevision: number };
  /** Approvals for the rest of a run, by tool name (SPEC HITL-15); absent when there is none. */
  readonly runApprovals?: { readonly [toolName: string]: RunApproval };
  /** The first stop requested since the last stop, not yet honoured (SPEC EVT-7, HITL-12). */
  readonly stopRequest?: StopRequest;
  /**
   * The registered agent name the stream runs under, from its last `RunRequested` or the last
   * `RunStarted` that named one (SPEC WRK-1, WRK-9).
   */
  readonly agent?: string;
  /**
   * The last run's agent opted out of being continued by a worker after a decision (SPEC WRK-9,
   * `RunStarted.continueAfterDecision`): a decided stream waits for its caller's `run()`.
   */
  readonly continueAfterDecision?: false;
  /** A run requested and not yet started (SPEC WRK-1): the next run takes its input. */
  readonly runRequest?: RunRequest;
  /** The worker that took the current (or last) run, from its `RunStarted` (SPEC WRK-7). */
  readonly worker?: WorkerIdentity;
  /** The worker gave the last run back (`RunReleased`, SPEC WRK-5): no lease holds it. */
  readonly released?: true;
}

/** A requested run (SPEC WRK-1): its input, who asked, and the revision of its `RunRequested`. */
export interface RunRequest {
  readonly input?: string;
  readonly by?: string;
  readonly revision: number;
}

/** A recorded stop request (SPEC EVT-7): who asked, and the revision of its `StopRequested`. */
export interface StopRequest {
  readonly reason: string;
  readonly by?: string;
  readonly hook?: HookKind;
  readonly revision: number;
}

/** The state of an agent whose stream is empty. */
export const initialState: AgentState = publish(emptyDraft());
