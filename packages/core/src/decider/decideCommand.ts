import { AgentError } from '../errors/agentError.js';
import { LeaseLostError } from '../errors/leaseLostError.js';
import type { HookKind, PendingEvent, RunMode, WorkerIdentity } from '../events/agentEvent.js';
import type { AgentState } from '../events/agentState.js';
import { toolCallOf } from '../events/stateQueries.js';
import type { ToolFeedback } from '../messages/toolFeedback.js';
import { findNonJson } from '../support/json.js';
import type { DeciderSettings } from './deciderSettings.js';
import { stopWith } from './nextStep.js';
import { callerStop } from './runCursor.js';
import { hasWork, runStart } from './runStart.js';

/** A command of the caller (or of a person through the caller), as the decider judges it. */
export type Command =
  /** `query`, `queryOnce`, `run` or `runOnce` (SPEC LOOP-1, LOOP-2), by a worker or not (WRK-7). */
  | {
      readonly kind: 'startRun';
      readonly mode: RunMode;
      readonly input?: string;
      readonly worker?: WorkerIdentity;
    }
  /** A run of the registered agent `agent` is wanted (SPEC WRK-1). */
  | {
      readonly kind: 'requestRun';
      readonly agent: string;
      readonly input?: unknown;
      readonly by?: unknown;
    }
  /** A worker gives back the run it holds (SPEC WRK-5). */
  | { readonly kind: 'releaseRun'; readonly worker: WorkerIdentity; readonly reason?: string }
  /** A person's decision on an open call (SPEC HITL-3, HITL-10). */
  | {
      readonly kind: 'recordDecision';
      readonly toolCallId: string;
      readonly feedback: ToolFeedback;
      readonly by?: unknown;
      readonly note?: unknown;
      /** `run`: the approval covers the tool's later calls in the run that follows (SPEC HITL-15). */
      readonly scope?: unknown;
    }
  /** The caller read a decision and so consumed it (SPEC HITL-3). */
  | { readonly kind: 'consumeDecision'; readonly toolCallId: string }
  /**
   * The caller's `agent.stop(text)`, or a hook's (SPEC STOP-7, STOP-9, EVT-7): during this agent's
   * own run it is recorded and lands at the next step boundary; it stops a pending agent at once,
   * and asks a run another process works on to stop (SPEC HITL-12).
   */
  | {
      readonly kind: 'stop';
      readonly text: string;
      readonly hook?: HookKind;
      readonly by?: string;
    }
  /** A stop request for the run in progress, from anywhere (SPEC HITL-12). */
  | { readonly kind: 'requestStop'; readonly reason: string; readonly by?: string }
  /** A summary (SPEC MSG-4). */
  | { readonly kind: 'addSummary'; readonly text: string };

/**
 * Whether this agent's own run is in progress, and whether the command's append claims the run.
 * Whether another process's run is live is never judged here: the store judges it, atomically
 * with the append that claims the run, on its own clock (SPEC WRK-4).
 */
export interface CommandContext {
  /** The run the stream shows is this agent's: in progress here, or cut off by a store outage. */
  readonly ownRun: boolean;
  /** This agent's run is in progress in this process: its interpreter takes the events in. */
  readonly inRun?: boolean;
  /**
   * The command's events are appended as a claim of the stream's run (the store refuses the claim
   * while another process holds a live lease): a stop then ends a run in progress at once, since
   * the claim succeeds only when that run's process is gone.
   */
  readonly claims?: boolean;
}

/**
 * The events a caller's command appends, or the error it is rejected with: pure and total. It
 * holds `nothingToRun`, the checks of a decision, a run request and a release, and first stop
 * wins (STOP-7). A run of another process is fenced by the store, not here (SPEC WRK-4, WRK-8).
 */
export function decideCommand(
  state: AgentState,
  settings: DeciderSettings,
  command: Command,
  context: CommandContext,
): readonly PendingEvent[] {
  switch (command.kind) {
    case 'startRun':
      return runStart(state, settings, command.mode, command.input, command.worker);
    case 'requestRun':
      return [runRequest(state, settings, command, context)];
    case 'releaseRun':
      return release(state, settings, command);
    case 'recordDecision':
      return [decision(state, command)];
    case 'consumeDecision':
      if (foreignRunInProgress(state, context)) throw inProgress(settings, 'a decision is read');
      return state.feedback[command.toolCallId] === undefined
        ? []
        : [{ type: 'FeedbackConsumed', data: { toolCallId: command.toolCallId } }];
    case 'stop':
      return stop(state, command, context);
    case 'requestStop':
      return [stopRequest(state, settings, command)];
    case 'addSummary':
      // Its next append would meet the summary and fail: a history changes under one run only.
      if (foreignRunInProgress(state, context)) throw inProgress(settings, 'a summary is added');
      return [{ type: 'SummaryAdded', data: { text: command.text } }];
  }
}

/**
 * The refusal of a command that another process's run in progress would not fold in: its next
 * append would meet the command's event and fail (only decisions and stop requests are folded in).
 */
function inProgress(settings: DeciderSettings, what: string): AgentError {
  return new AgentError(
    'alreadyRunning',
    `stream ${settings.streamId} has a run in progress in another process; ${what} when no run is in progress (stop it first); nothing was written`,
  );
}

/**
 * Whether the stream shows a run in progress that is not this agent's and that no worker gave
 * back: one only the store can say is live or not (SPEC WRK-4).
 */
export function foreignRunInProgress(state: AgentState, context: CommandContext): boolean {
  return state.status === 'running' && state.released !== true && !context.ownRun;
}

/**
 * The caller's or a hook's stop (SPEC STOP-7, EVT-7): always a `StopRequested` first. The run in
 * progress (this agent's, or one of another process) honours it at its next step boundary; a
 * pending agent is stopped at once, and so is another process's run when the stop claims the run
 * (the store grants the claim only once that run's lease lapsed: its process died).
 */
function stop(
  state: AgentState,
  command: Extract<Command, { kind: 'stop' }>,
  context: CommandContext,
): readonly PendingEvent[] {
  if (state.status === 'stopped') return [];
  const { text, hook, by } = command;
  const request: PendingEvent = {
    type: 'StopRequested',
    data: {
      reason: text,
      ...(by === undefined ? {} : { by }),
      ...(hook === undefined ? {} : { hook }),
    },
  };
  const live =
    context.inRun === true || (foreignRunInProgress(state, context) && context.claims !== true);
  if (live) return [request];
  return [request, ...stopWith(callerStop(text, { hook, by })).events];
}

function stopRequest(
  state: AgentState,
  settings: DeciderSettings,
  command: Extract<Command, { kind: 'requestStop' }>,
): PendingEvent {
  const { reason, by } = command;
  if (typeof reason !== 'string' || reason === '') {
    throw new AgentError('invalidConfiguration', 'a stop request needs a reason (a text)');
  }
  if (by !== undefined && typeof by !== 'string') {
    throw new AgentError('invalidConfiguration', 'by must be a string');
  }
  if (state.status !== 'running') {
    throw new AgentError(
      'notRunning',
      `stream ${settings.streamId} has no run in progress to stop (it is ${state.status === 'stopped' ? `stopped: ${state.stopReason?.kind ?? 'unknown'}` : state.status}); nothing was written`,
    );
  }
  return { type: 'StopRequested', data: by === undefined ? { reason } : { reason, by } };
}

function decision(
  state: AgentState,
  command: Extract<Command, { kind: 'recordDecision' }>,
): PendingEvent {
  const { toolCallId, feedback, by, note, scope } = command;
  const invalid = (problem: string): AgentError =>
    new AgentError('invalidFeedback', `feedback for tool call ${toolCallId}: ${problem}`);
  const call = toolCallOf(state, toolCallId);
  if (call === undefined) throw invalid('the model never made this call in this stream');
  if (call.status === 'completed' || call.status === 'failed') {
    throw invalid('the call is not open, it was already answered');
  }
  if (call.status === 'started') {
    throw invalid(
      'its invocation is running, or was cut off by a crash; a decision is given when the call asks for one',
    );
  }
  if (state.feedback[toolCallId] !== undefined) {
    throw invalid('a decision was already given and no invocation has used it yet');
  }
  if (feedback?.kind !== 'approved' && feedback?.kind !== 'refused') {
    throw invalid(`the decision must be approved or refused, not ${String(feedback?.kind)}`);
  }
  const nonJson = feedback.payload === undefined ? undefined : findNonJson(feedback.payload);
  if (nonJson !== undefined) throw invalid(`the payload is not JSON: ${nonJson}`);
  const { reason } = feedback;
  if (reason !== undefined && typeof reason !== 'string')
    throw invalid('the reason must be a text');
  if (reason !== undefined && feedback.kind !== 'refused')
    throw invalid('only a refusal carries a reason for the model; an approval may carry a note');
  for (const [field, value] of [
    ['by', by],
    ['note', note],
  ] as const) {
    if (value !== undefined && typeof value !== 'string')
      throw invalid(`${field} must be a string`);
  }
  if (scope !== undefined && scope !== 'call' && scope !== 'run')
    throw invalid(`the scope must be call or run, not ${JSON.stringify(scope) ?? typeof scope}`);
  if (scope === 'run' && feedback.kind !== 'approved')
    throw invalid('only an approval can cover the rest of the run; a refusal answers its one call');
  return {
    type: 'FeedbackReceived',
    data: {
      toolCallId,
      feedback: {
        kind: feedback.kind,
        ...(feedback.payload === undefined ? {} : { payload: feedback.payload }),
        ...(reason === undefined ? {} : { reason }),
      },
      ...(typeof by === 'string' ? { by } : {}),
      ...(typeof note === 'string' ? { note } : {}),
      ...(scope === 'run' ? { scope } : {}),
    },
  };
}

/**
 * A run request (SPEC WRK-1): refused while a run holds the stream (that run would not fold the
 * request in; a run whose process died is listed for the workers by its lapsed lease anyway) or a
 * request is pending, and when it would have nothing to run.
 */
function runRequest(
  state: AgentState,
  settings: DeciderSettings,
  command: Extract<Command, { kind: 'requestRun' }>,
  context: CommandContext,
): PendingEvent {
  const { agent, input, by } = command;
  const invalid = (problem: string): AgentError =>
    new AgentError(
      'invalidConfiguration',
      `a run request for stream ${settings.streamId}: ${problem}`,
    );
  if (typeof agent !== 'string' || agent === '')
    throw invalid('it needs the registered agent name');
  if (input !== undefined && typeof input !== 'string') {
    throw invalid(`the input must be a text, got ${typeof input}`);
  }
  if (by !== undefined && typeof by !== 'string') throw invalid('by must be a string');
  if (state.runRequest !== undefined) {
    throw new AgentError(
      'alreadyRunning',
      `stream ${settings.streamId} already has a requested run that no worker started yet; nothing was written`,
    );
  }
  if (
    context.inRun === true ||
    (context.ownRun && state.status === 'running') ||
    foreignRunInProgress(state, context)
  ) {
    throw new AgentError(
      'alreadyRunning',
      `stream ${settings.streamId} has a run in progress; nothing was written`,
    );
  }
  if (input === undefined && !hasWork(state, settings)) {
    throw new AgentError(
      'nothingToRun',
      `stream ${settings.streamId} has nothing to run, so a run without input is not requested; nothing was written`,
    );
  }
  return {
    type: 'RunRequested',
    data: {
      agent,
      ...(input === undefined ? {} : { input }),
      ...(by === undefined ? {} : { by }),
    },
  };
}

/**
 * A worker gives back the run it holds (SPEC WRK-5): refused with a `LeaseLostError` when the
 * stream's run is not its own (another worker took it), nothing when it was released already.
 */
function release(
  state: AgentState,
  settings: DeciderSettings,
  command: Extract<Command, { kind: 'releaseRun' }>,
): readonly PendingEvent[] {
  const { worker, reason } = command;
  if (state.released === true || state.runs === 0) return [];
  if (state.worker?.id !== worker.id) {
    throw new LeaseLostError(
      settings.streamId,
      undefined,
      undefined,
      `stream ${settings.streamId}: worker ${worker.id} cannot release the run, ${state.worker === undefined ? 'no worker' : `worker ${state.worker.id}`} took it`,
    );
  }
  return [{ type: 'RunReleased', data: reason === undefined ? { worker } : { worker, reason } }];
}
