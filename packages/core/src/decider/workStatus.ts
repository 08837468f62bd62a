import type { AgentState } from '../events/agentState.js';
import { unansweredCalls } from '../events/stateQueries.js';
import type { WorkEntry, WorkStatus } from '../ports/workIndex.js';
import type { DeciderSettings } from './deciderSettings.js';
import { hasWork } from './runStart.js';

/**
 * Where a stream stands for the workers (SPEC WRK-2), pure and O(batch): `requested` while a
 * requested run is not started; `running` while a run holds it; `ready` when it stopped for
 * feedback and every waiting call holds a decision, or its worker released it with work left;
 * `idle` otherwise. A stream that needs nothing is never `requested` or `ready`.
 */
export function workStatus(
  state: AgentState,
  settings: Pick<DeciderSettings, 'systemPrompt' | 'stopOnAssistant'>,
): WorkStatus {
  if (state.runRequest !== undefined) return 'requested';
  const released = state.released === true;
  if (state.status === 'running' && !released) return 'running';
  if (state.status === 'stopped' && state.stopReason?.kind === 'feedbackRequired') {
    const waiting = unansweredCalls(state).filter((call) => call.status === 'waiting');
    const decided = waiting.every((call) => state.feedback[call.toolCall.id] !== undefined);
    return waiting.length > 0 && decided ? 'ready' : 'idle';
  }
  return released && hasWork(state, settings) ? 'ready' : 'idle';
}

/**
 * The work-index entry an append writes with its events (SPEC WRK-6): the status, the registered
 * agent name, and while running the worker that holds the run and its lease.
 */
export function workEntry(
  state: AgentState,
  settings: Pick<DeciderSettings, 'systemPrompt' | 'stopOnAssistant' | 'runLeaseMs'>,
): WorkEntry {
  const status = workStatus(state, settings);
  return {
    status,
    ...(state.agent === undefined ? {} : { agent: state.agent }),
    ...(status === 'running' && state.worker !== undefined ? { owner: state.worker.id } : {}),
    ...(status === 'running' ? { leaseMs: settings.runLeaseMs } : {}),
  };
}
