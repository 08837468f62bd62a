import { AgentError } from '../errors/agentError.js';
import type { PendingEvent, RunMode, WorkerIdentity } from '../events/agentEvent.js';
import type { AgentState } from '../events/agentState.js';
import type { DeciderSettings } from './deciderSettings.js';
import { callsToResume, hasNewMessages } from './pendingWork.js';

/**
 * True when `run()` would do anything: a requested run's text, a first system prompt, queued
 * texts, calls to resume, or new messages. A run that ended with a terminal stop (a tool said the
 * task is done or failed) is not asked again without new input (SPEC RES-4): a late worker's bare
 * `run()` costs nothing.
 */
export function hasWork(
  state: AgentState,
  settings: Pick<DeciderSettings, 'systemPrompt' | 'stopOnAssistant'>,
): boolean {
  const finished = finishedBy(state) !== undefined;
  return (
    state.runRequest?.input !== undefined ||
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

/**
 * The events that record a run's command (SPEC LOOP-2): `RunStarted` (naming the worker that
 * took the run, SPEC WRK-7, and the agent's registered name and continue policy, WRK-9), on the first run the system prompt, the query's text queued. A
 * requested run's text (SPEC WRK-1) is queued first: a bare `run()` records it as its input. A
 * bare `run()` with nothing to do is rejected (SPEC RES-4).
 */
export function runStart(
  state: AgentState,
  settings: DeciderSettings,
  mode: RunMode,
  input: string | undefined,
  worker?: WorkerIdentity,
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
  const requested = state.runRequest?.input;
  const recorded = input ?? requested;
  const events: PendingEvent[] = [
    {
      type: 'RunStarted',
      data: {
        mode,
        ...(recorded === undefined ? {} : { input: recorded }),
        ...(worker === undefined ? {} : { worker }),
        ...(settings.agentName === undefined ? {} : { agent: settings.agentName }),
        ...(settings.continueAfterDecision === false ? { continueAfterDecision: false } : {}),
      },
    },
  ];
  if (state.runs === 0 && settings.systemPrompt !== undefined && !state.systemPromptAdded) {
    events.push({ type: 'SystemPromptAdded', data: { text: settings.systemPrompt } });
  }
  if (requested !== undefined)
    events.push({ type: 'UserMessageQueued', data: { text: requested } });
  if (input !== undefined) events.push({ type: 'UserMessageQueued', data: { text: input } });
  return events;
}
