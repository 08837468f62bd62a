import { recordOutcome } from '../decider/recordOutcome.js';
import type { RunCursor } from '../decider/runCursor.js';
import type { RunScope } from './runScope.js';

/**
 * Takes in the stop requests given since the interpreter last decided or recorded: the first
 * stop of a step is kept, and lands when the step ends (SPEC STOP-7, STOP-9).
 */
export function takeInbox(scope: RunScope, cursor: RunCursor): RunCursor {
  // Most steps get no request: then nothing is allocated.
  if (scope.inbox.length === 0) return cursor;
  let next = cursor;
  for (const outcome of scope.inbox.splice(0)) {
    next = recordOutcome(scope.writer.state, scope.settings, next, outcome).cursor;
  }
  return next;
}
