import type { StopCause, StopReason } from '../agent/stopReason.js';
import { callHooks } from './callHooks.js';
import type { RunScope } from './runScope.js';

/**
 * Records the stop, after any events the step holds back, and fires `onStop`, unless the agent
 * already stopped: the first stop wins (SPEC STOP-7). Returns whether this call stopped it.
 */
export async function stopAgent(
  scope: RunScope,
  reason: StopReason,
  cause: StopCause,
  error?: Error,
): Promise<boolean> {
  if (scope.writer.statusAfterDeferred() === 'stopped') {
    await scope.writer.flush();
    return false;
  }
  await scope.writer.append([{ type: 'AgentStopped', data: { reason, cause } }]);
  if (error === undefined) await callHooks(scope, 'onStop', reason);
  else await callHooks(scope, 'onStop', reason, error);
  return true;
}
