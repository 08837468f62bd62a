import { AgentError } from '../errors/agentError.js';
import { ConcurrencyError } from '../errors/concurrencyError.js';
import type { HookKind, PendingEvent, RunMode } from '../events/agentEvent.js';
import type { AgentState } from '../events/agentState.js';
import { toolCallOf } from '../events/stateQueries.js';
import type { ToolFeedback } from '../messages/toolFeedback.js';
import { findNonJson } from '../support/json.js';
import type { DeciderSettings } from './deciderSettings.js';
import { stopWith } from './nextStep.js';
import { callerStop } from './runCursor.js';
import { runStart } from './runStart.js';

/** A command of the caller (or of a person through the caller), as the decider judges it. */
export type Command =
  /** `query`, `queryOnce`, `run` or `runOnce` (SPEC LOOP-1, LOOP-2). */
  | { readonly kind: 'startRun'; readonly mode: RunMode; readonly input?: string }
  /** A person's decision on an open call (SPEC HITL-3, HITL-10). */
  | {
      readonly kind: 'recordDecision';
      readonly toolCallId: string;
      readonly feedback: ToolFeedback;
      readonly by?: unknown;
      readonly note?: unknown;
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

/** The injected clock, and whether this agent's own run is in progress in this process. */
export interface CommandContext {
  /** Read only when the rule needs the time (the lease of a run in progress). */
  readonly clock: () => Date;
  /** The run the stream shows is this agent's: in progress here, or cut off by a store outage. */
  readonly ownRun: boolean;
  /** This agent's run is in progress in this process: its interpreter takes the events in. */
  readonly inRun?: boolean;
}

/**
 * The events a caller's command appends, or the error it is rejected with: pure and total. It
 * holds the run lease (a run another process started owns the stream until `runLeaseMs` after its
 * last event, SPEC RES-3), `nothingToRun`, the checks of a decision, and first stop wins (STOP-7).
 */
export function decideCommand(
  state: AgentState,
  settings: DeciderSettings,
  command: Command,
  context: CommandContext,
): readonly PendingEvent[] {
  // A decision or a stop request may be given during another process's run: that run folds it in.
  const duringForeignRun =
    command.kind === 'recordDecision' || command.kind === 'stop' || command.kind === 'requestStop';
  if (!context.ownRun && !duringForeignRun) {
    const foreign = foreignRun(state, settings, context.clock);
    if (foreign !== undefined) throw foreign;
  }
  switch (command.kind) {
    case 'startRun':
      return runStart(state, settings, command.mode, command.input);
    case 'recordDecision':
      return [decision(state, command)];
    case 'consumeDecision':
      return state.feedback[command.toolCallId] === undefined
        ? []
        : [{ type: 'FeedbackConsumed', data: { toolCallId: command.toolCallId } }];
    case 'stop':
      return stop(state, settings, command, context);
    case 'requestStop':
      return [stopRequest(state, settings, command)];
    case 'addSummary':
      return [{ type: 'SummaryAdded', data: { text: command.text } }];
  }
}

/**
 * The lease of a run that is not ours: the stream says a run is in progress, and its last event
 * is younger than `runLeaseMs` by the injected clock. Past it the run counts as crashed, and
 * resuming applies SPEC TOOL-7. An unreadable time holds no lease; a negative idle time (clocks
 * that disagree) does.
 */
export function foreignRun(
  state: AgentState,
  settings: DeciderSettings,
  clock: () => Date,
): ConcurrencyError | undefined {
  const { status, lastEventAt, revision } = state;
  if (status !== 'running' || lastEventAt === undefined) return undefined;
  const idleMs = clock().getTime() - Date.parse(lastEventAt);
  if (Number.isNaN(idleMs) || idleMs >= settings.runLeaseMs) return undefined;
  const { streamId } = settings;
  return new ConcurrencyError(
    streamId,
    revision,
    revision,
    `stream ${streamId} has a run in progress in another process (last event at revision ${revision}, ${idleMs} ms ago); it owns the stream until ${settings.runLeaseMs} ms after its last event`,
  );
}

/**
 * The caller's or a hook's stop (SPEC STOP-7, EVT-7): always a `StopRequested` first. The run in
 * progress (this agent's, or a live one of another process) honours it at its next step boundary;
 * a pending agent, or a run whose lease ran out (its process died), is stopped at once.
 */
function stop(
  state: AgentState,
  settings: DeciderSettings,
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
    context.inRun === true ||
    (!context.ownRun && foreignRun(state, settings, context.clock) !== undefined);
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
  const { toolCallId, feedback, by, note } = command;
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
    },
  };
}
