import type { RunScope } from './runScope.js';
import type { InputMoment } from '../api/runOptions.js';

/**
 * In a replay, takes in what the recording says others wrote during the run (a person's
 * decision, a stop request) at the revision where it was recorded, before the interpreter decides
 * again (SPEC RPL-5, EVT-7). A live run has no recorded inputs: others' writes reach it through
 * the store, and its own caller's through the agent.
 */
export function takeRecordedInputs(scope: RunScope, moment: InputMoment): void {
  const inputs = scope.channel.recordedInputs;
  if (inputs === undefined) return;
  const due = inputs(scope.writer.state.revision + 1, moment);
  if (due.length > 0) scope.writer.defer(due);
}
