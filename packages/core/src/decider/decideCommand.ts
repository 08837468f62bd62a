import { AgentError } from '../errors/agentError.js';
import { ConcurrencyError } from '../errors/concurrencyError.js';
import type { PendingEvent, RunMode } from '../events/agentEvent.js';
import type { AgentState } from '../events/agentState.js';
import { toolCallOf } from '../events/stateQueries.js';
import type { ToolFeedback } from '../messages/toolFeedback.js';
import { findNonJson } from '../support/json.js';
import type { DeciderSettings } from './deciderSettings.js';
import { stopWith } from './nextStep.js';
import { callsToResume, hasNewMessages } from './pendingWork.js';
import { callerStop } from './runCursor.js';

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
   * The caller's `agent.stop(text)` while no run of this agent is in progress (SPEC STOP-7): it
   * stops a pending agent, and asks a run another process works on to stop (SPEC HITL-12).
   */
  | { readonly kind: 'stop'; readonly text: string }
  /** A stop request for the run in progress, from anywhere (SPEC HITL-12). */
  | { readonly kind: 'requestStop'; readonly reason: string; readonly by?: string }
  /** A summary (SPEC MSG-4). */
  | { readonly kind: 'addSummary'; readonly text: string };

/** The injected clock, and whether this agent's own run is in progress in this process. */
export interface CommandContext {
  /** Read only when the rule needs the time (the lease of a run in progress). */
  readonly clock: () => Date;
  readonly ownRun: boolean;
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
      if (state.status === 'stopped') return [];
      // A live run of another process is asked to stop; a pending agent (or a run whose lease
      // ran out: its process died) is stopped at once.
      if (!context.ownRun && foreignRun(state, settings, context.clock) !== undefined) {
        return [{ type: 'StopRequested', data: { reason: command.text } }];
      }
      return stopWith(callerStop(command.text)).events;
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
 * True when `run()` would do anything: a first system prompt, queued texts, calls to resume, or
 * new messages. A run that ended with a terminal stop (a tool said the task is done or failed) is
 * not asked again without new input (SPEC RES-4): a late worker's bare `run()` costs nothing.
 */
function hasWork(state: AgentState, settings: DeciderSettings): boolean {
  const finished = finishedBy(state) !== undefined;
  return (
    (settings.systemPrompt !== undefined && !state.systemPromptAdded && state.runs === 0) ||
    state.queued.length > 0 ||
    callsToResume(state).length > 0 ||
    (!finished && hasNewMessages(state, settings.stopOnAssistant))
  );
}

/** The terminal stop a tool recorded (the task is done or failed), if the agent stopped so. */
function finishedBy(state: AgentState): 'requestedByTool' | 'agentFailed' | undefined {
  const kind = state.status === 'stopped' ? state.stopReason?.kind : undefined;
  return kind === 'requestedByTool' || kind === 'agentFailed' ? kind : undefined;
}

/** `RunStarted`; on the first run the system prompt; the query's text queued (SPEC LOOP-2). */
function runStart(
  state: AgentState,
  settings: DeciderSettings,
  mode: RunMode,
  input: string | undefined,
): PendingEvent[] {
  if (input !== undefined && typeof input !== 'string') {
    throw new AgentError('invalidConfiguration', `${mode} needs a text, got ${typeof input}`);
  }
  if (input === undefined && !hasWork(state, settings)) {
    const kind = finishedBy(state);
    const ended =
      kind === undefined
        ? ''
        : `; the run ended with ${kind}, so it is not asked again without new input`;
    throw new AgentError(
      'nothingToRun',
      `agent ${settings.streamId} has nothing to run: no open tool calls, no queued or new messages${ended}`,
    );
  }
  const events: PendingEvent[] = [
    { type: 'RunStarted', data: input === undefined ? { mode } : { mode, input } },
  ];
  if (state.runs === 0 && settings.systemPrompt !== undefined && !state.systemPromptAdded) {
    events.push({ type: 'SystemPromptAdded', data: { text: settings.systemPrompt } });
  }
  if (input !== undefined) events.push({ type: 'UserMessageQueued', data: { text: input } });
  return events;
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
      feedback:
        feedback.payload === undefined
          ? { kind: feedback.kind }
          : { kind: feedback.kind, payload: feedback.payload },
      ...(typeof by === 'string' ? { by } : {}),
      ...(typeof note === 'string' ? { note } : {}),
    },
  };
}
