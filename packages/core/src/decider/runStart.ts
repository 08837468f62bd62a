import { AgentError } from '../errors/agentError.js';
import type { PendingEvent, RunMode } from '../events/agentEvent.js';
import type { AgentState } from '../events/agentState.js';
import type { DeciderSettings } from './deciderSettings.js';
import { callsToResume, hasNewMessages } from './pendingWork.js';

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

/**
 * The events that record a run's command (SPEC LOOP-2): `RunStarted`, on the first run the system
 * prompt, the query's text queued. A bare `run()` with nothing to do is rejected (SPEC RES-4).
 */
export function runStart(
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
