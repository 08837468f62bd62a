import type { AgentState } from '../events/agentState.js';
import { unansweredCalls } from '../events/stateQueries.js';
import type { WorkEntry, WorkStatus } from '../ports/workIndex.js';
import type { DeciderSettings } from './deciderSettings.js';
import { hasWork } from './runStart.js';

/**
 * Where a stream stands for the workers (SPEC WRK-2), pure and O(batch): `running` while a run
 * holds it; `requested` while a requested run is not started; `ready` when it stopped for
 * feedback and every waiting call holds a decision, or its worker released it with work left;
 * `waiting` when it stopped for feedback and a waiting call holds no decision (it waits for a
 * person); `idle` otherwise. A stream that needs nothing is never `requested` or `ready`.
 */
export function workStatus(
  state: AgentState,
  settings: Pick<DeciderSettings, 'systemPrompt' | 'stopOnAssistant'>,
): WorkStatus {
  const released = state.released === true;
  // A live run comes first: a request that met it waits until it ends or its lease lapses, so no
  // worker is sent to a stream a run holds (SPEC WRK-4).
  if (state.status === 'running' && !released) return 'running';
  if (state.runRequest !== undefined) return 'requested';
  if (state.status === 'stopped' && state.stopReason?.kind === 'feedbackRequired') {
    const waiting = unansweredCalls(state).filter((call) => call.status === 'waiting');
    const decided = waiting.every((call) => state.feedback[call.toolCall.id] !== undefined);
    if (waiting.length === 0) return 'idle';
    if (!decided) return 'waiting';
    // The agent opted out of being continued by a worker: its caller's run() continues it.
    return state.continueAfterDecision === false ? 'idle' : 'ready';
  }
  return released && hasWork(state, settings) ? 'ready' : 'idle';
}

/**
 * The work-index entry an append writes with its events (SPEC WRK-6): the status, the registered
 * agent name, and while running who holds the run (`owner`, the claim's owner, else the worker
 * that took it) and its lease.
 */
export function workEntry(
  state: AgentState,
  settings: Pick<DeciderSettings, 'systemPrompt' | 'stopOnAssistant' | 'runLeaseMs'>,
  owner: string | undefined = state.worker?.id,
): WorkEntry {
  const status = workStatus(state, settings);
  return {
    status,
    ...(state.agent === undefined ? {} : { agent: state.agent }),
    ...(status === 'running' && owner !== undefined ? { owner } : {}),
    ...(status === 'running' ? { leaseMs: settings.runLeaseMs } : {}),
  };
}
