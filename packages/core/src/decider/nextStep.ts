import type { StopCause } from '../events/stopReason.js';
import { AgentError } from '../errors/agentError.js';
import { ToolError } from '../errors/toolError.js';
import type { PendingEvent } from '../events/agentEvent.js';
import type { AgentState } from '../events/agentState.js';
import { lastMessage, lastOutputOf, toolCallOf } from '../events/stateQueries.js';
import type { ToolCall } from '../messages/toolCall.js';
import { callsToJudge } from './approvalVerdict.js';
import { callsToResume, hasNewMessages } from './pendingWork.js';
import type { DeciderSettings } from './deciderSettings.js';
import { planBatch, type BatchPlan } from './planBatch.js';
import { firstStop, type RunCursor, type StopCandidate } from './runCursor.js';
import { runStart } from './runStart.js';

/** What the interpreter does next in a run: an effect, events to append, or the end. */
export type NextStep =
  /** Fire `beforeAll`: the agent's first run, before its command is recorded (SPEC LOOP-2 (2)). */
  | { readonly kind: 'beforeAll' }
  /** Record the run's command: `RunStarted`, the first system prompt, the queued text (LOOP-2). */
  | { readonly kind: 'beginRun'; readonly events: readonly PendingEvent[] }
  /**
   * Judge the conditions of the approval gates of these calls, in order, before their batch
   * starts (SPEC HITL-13): the verdicts go into the cursor and are recorded with the starts.
   */
  | { readonly kind: 'judgeApproval'; readonly toolCalls: readonly ToolCall[] }
  /** Run a batch of tool calls (SPEC TOOL-2); in setup these are the resumed calls (SPEC HITL-4). */
  | ({ readonly kind: 'invokeBatch' } & BatchPlan)
  /** Move the queued texts into the history, then fire `onStart` (SPEC LOOP-2 (5), (6)). */
  | { readonly kind: 'beginLoop'; readonly events: readonly PendingEvent[] }
  /**
   * Write what the run holds back, and take in what others wrote meanwhile (SPEC RES-4,
   * HITL-12): the run is visible, and leased, while its model answers.
   */
  | { readonly kind: 'write' }
  /** Ask the model (SPEC LOOP-4). */
  | { readonly kind: 'askModel' }
  /** The step's tools ran: fire `afterEach`; its stop, if any, lands next (SPEC STOP-9). */
  | { readonly kind: 'endStep' }
  /** Record the stop, then fire `onStop` (SPEC STOP-7). `warning` is logged first. */
  | {
      readonly kind: 'stop';
      readonly events: readonly PendingEvent[];
      readonly stop: StopCandidate;
      readonly warning?: string;
    }
  /** The run is over: resolve, or reject with `error` (SPEC STOP-6, HITL-6). */
  | { readonly kind: 'finish'; readonly error?: Error };

/**
 * What happens next in a run, from the fold, the settings and the interpreter's position: pure
 * and total. It holds the order of SPEC LOOP-2 and LOOP-3, `beforeAll` on the first run only, the
 * limit (LOOP-5), the single step of `queryOnce`/`runOnce`, the rule that a stop lands when its
 * step ends (STOP-9), and that a stop request met by the step's write spares the model (EVT-7).
 */
export function nextStep(
  state: AgentState,
  settings: DeciderSettings,
  cursor: RunCursor,
): NextStep {
  switch (cursor.phase) {
    case 'start':
      return startStep(state, settings, cursor);
    case 'setup':
      return setupStep(state, settings, cursor);
    case 'step':
      return loopStep(state, settings, cursor);
  }
}

/** SPEC LOOP-2 (2)–(3): `beforeAll` sees the stream before the first run's command is recorded. */
function startStep(state: AgentState, settings: DeciderSettings, cursor: RunCursor): NextStep {
  const command = cursor.command ?? { mode: 'run' };
  if (state.runs === 0 && cursor.hooked !== true) return BEFORE_ALL;
  return {
    kind: 'beginRun',
    events: runStart(state, settings, command.mode, command.input, command.worker),
  };
}

/** SPEC LOOP-2 (4)–(6): resume open calls, then move the queued texts into the history. */
function setupStep(state: AgentState, settings: DeciderSettings, cursor: RunCursor): NextStep {
  if (cursor.invoked === undefined && state.status === 'running') {
    const open = callsToResume(state);
    if (open.length > 0) return batchStep(state, settings, cursor, open);
  }
  if (cursor.stop !== undefined && state.status !== 'stopped') {
    return stopWith(firstStop(cursor.stop, state.stopRequest) ?? cursor.stop);
  }
  if (state.status === 'stopped') return finishSetup(state, settings, cursor);
  // A stop request lands at the top of the loop, once the run's events are written.
  return {
    kind: 'beginLoop',
    events: state.queued.map((text) => ({ type: 'UserMessageAdded', data: { text } })),
  };
}

/** SPEC LOOP-3: one completion step, from the write that opens it to the boundary that ends it. */
function loopStep(state: AgentState, settings: DeciderSettings, cursor: RunCursor): NextStep {
  if (cursor.asked) {
    const last = lastMessage(state);
    if (
      cursor.invoked === undefined &&
      state.status === 'running' &&
      last?.role === 'assistant' &&
      last.toolCalls.length > 0
    ) {
      return batchStep(state, settings, cursor, last.toolCalls);
    }
    return END_STEP;
  }
  if (state.status === 'stopped') return finish(state, settings);
  // The first of the step's own stop and a requested one (any process, SPEC HITL-12) lands here.
  const stop = firstStop(cursor.stop, state.stopRequest);
  if (stop !== undefined) return stopWith(stop);
  const once = state.runMode === 'queryOnce' || state.runMode === 'runOnce';
  if (once && state.completionsInRun > 0) {
    return stopWith({ reason: { kind: 'noNewMessages' }, cause: 'singleStep' });
  }
  if (!hasNewMessages(state, settings.stopOnAssistant)) {
    return stopWith({ reason: { kind: 'noNewMessages' }, cause: idleCause(state) });
  }
  if (settings.limit !== undefined && state.completionsInRun >= settings.limit) {
    return {
      ...stopWith({ reason: { kind: 'noNewMessages' }, cause: 'limitReached' }),
      warning: `agent reached its limit of ${settings.limit} completions in one run`,
    };
  }
  // Before the model is asked, the run writes what it holds back (so it is visible, and leased,
  // while the model answers) and decides again: the write may bring in a stop someone requested.
  return cursor.write === true ? WRITE : ASK_MODEL;
}

/** A batch, once the conditions of its gates are judged (SPEC TOOL-2, HITL-13). */
function batchStep(
  state: AgentState,
  settings: DeciderSettings,
  cursor: RunCursor,
  toolCalls: readonly ToolCall[],
): NextStep {
  const unjudged = callsToJudge(state, settings, toolCalls, cursor.verdicts);
  if (unjudged.length > 0) return { kind: 'judgeApproval', toolCalls: unjudged };
  return { kind: 'invokeBatch', ...planBatch(state, settings, toolCalls, cursor.verdicts) };
}

// The steps without data are the same object every time: a step allocates no more than it must.
const ASK_MODEL: NextStep = Object.freeze({ kind: 'askModel' });
const WRITE: NextStep = Object.freeze({ kind: 'write' });
const BEFORE_ALL: NextStep = Object.freeze({ kind: 'beforeAll' });
const END_STEP: NextStep = Object.freeze({ kind: 'endStep' });
const FINISH: NextStep = Object.freeze({ kind: 'finish' });

/** The step that records a stop candidate. */
export type StopStep = Extract<NextStep, { kind: 'stop' }>;

/** The `AgentStopped` of a stop candidate. */
export function stopWith(stop: StopCandidate): StopStep {
  return {
    kind: 'stop',
    stop,
    events: [
      {
        type: 'AgentStopped',
        data: {
          reason: stop.reason,
          cause: stop.cause,
          ...(stop.hook === undefined ? {} : { hook: stop.hook }),
          ...(stop.by === undefined ? {} : { by: stop.by }),
        },
      },
    ],
  };
}

/** After resuming stopped the agent: an over-limit failure or a call that still waits rejects. */
function finishSetup(state: AgentState, settings: DeciderSettings, cursor: RunCursor): NextStep {
  if (state.stopReason?.kind === 'toolCallsOverLimit') return finish(state, settings);
  const waiting = (cursor.invoked ?? []).filter((toolCall) => {
    const status = toolCallOf(state, toolCall.id)?.status;
    return status !== 'completed' && status !== 'failed';
  });
  if (waiting.length > 0) {
    return {
      kind: 'finish',
      error: new AgentError(
        'unfulfilledToolCalls',
        `tool calls still wait for feedback: ${waiting.map((call) => `${call.name} (${call.id})`).join(', ')}`,
      ),
    };
  }
  // A resumed call that stopped the agent is honoured (fix: Swiftide loses it).
  return finish(state, settings);
}

/** The end of a stopped run: `toolCallsOverLimit` also rejects with a tool error (SPEC STOP-6). */
function finish(state: AgentState, settings: DeciderSettings): NextStep {
  const reason = state.stopReason;
  if (reason?.kind !== 'toolCallsOverLimit') return FINISH;
  const failed = lastOutputOf(state, reason.toolCall.id);
  const detail =
    failed?.role === 'tool' && failed.output.kind === 'fail' ? failed.output.text : 'failed';
  return {
    kind: 'finish',
    error: new AgentError(
      'toolError',
      `tool ${reason.toolCall.name} failed more often than toolRetryLimit (${settings.toolRetryLimit}) allows: ${detail}`,
      { cause: ToolError.executionFailed(detail) },
    ),
  };
}

function idleCause(state: AgentState): StopCause {
  if (state.completionsInRun > 0 && state.lastResponseEmpty) return 'emptyResponse';
  return lastMessage(state)?.role === 'assistant' ? 'assistantAnswered' : 'nothingNew';
}
