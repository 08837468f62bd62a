import { decideCommand } from '../decider/decideCommand.js';
import { errorStop } from '../decider/errorStop.js';
import { nextStep, stopWith } from '../decider/nextStep.js';
import { runStart } from '../decider/runStart.js';
import {
  betweenSteps,
  setupCursor,
  startCursor,
  written,
  type RunCursor,
} from '../decider/runCursor.js';
import { ConcurrencyError } from '../errors/concurrencyError.js';
import { describeThrown } from '../errors/toolError.js';
import type { RunMode } from '../events/agentEvent.js';
import { askModel } from './askModel.js';
import { callHooks } from './callHooks.js';
import { judgeApproval } from './judgeApproval.js';
import { runBatch } from './runBatch.js';
import { takeRecordedInputs } from './takeRecordedInputs.js';
import { throwIfAborted } from './runAborted.js';
import { unreachable } from '../support/unreachable.js';
import type { RunScope } from './runScope.js';
import type { RunOptions } from '../api/runOptions.js';

/**
 * The one interpreter of a run: it asks the decider what happens next, performs that effect
 * through the ports and hooks, and appends the events the decider records for its outcome. It is
 * the only code that appends during a run. Every effect it performs is a `NextStep` kind; it
 * writes when the decider says (`write`, a batch's starts, a stop). Every failure ends the run
 * with the stop the decider gives it before it rejects (SPEC LOOP-8).
 */
export async function interpretRun(
  scope: RunScope,
  mode: RunMode,
  input?: string,
  options: RunOptions = {},
): Promise<void> {
  const { writer, settings, config } = scope;
  const { signal } = options;
  // Already aborted: nothing starts and nothing is written (SPEC LOOP-10).
  throwIfAborted(signal, 'before it started, and nothing was written');
  const { worker } = options;
  const command = {
    mode,
    ...(input === undefined ? {} : { input }),
    ...(worker === undefined ? {} : { worker }),
  };
  // A rejected start (nothing to run, a foreign run's lease) appends nothing.
  decideCommand(
    writer.state,
    settings,
    { kind: 'startRun', ...command },
    // A run this writer started and could not end (a store outage) is its own, not a foreign one.
    {
      clock: config.clock,
      ownRun: writer.ownsCurrentRun(),
      ...(options.leaseLapsed === true ? { leaseLapsed: true } : {}),
    },
  );
  scope.options = options;
  // A signal aborted with a ConcurrencyError says the run's lease is lost (SPEC WRK-4): from then
  // on nothing of this run is appended, not even its stop.
  writer.guard = () => leaseLost(signal);
  let cursor: RunCursor = startCursor(command);
  try {
    for (;;) {
      if (cursor.phase !== 'start') throwIfAborted(signal, 'between two steps');
      takeRecordedInputs(scope, 'decision');
      const next = nextStep(writer.state, settings, cursor);
      switch (next.kind) {
        case 'beforeAll':
          await callHooks(scope, 'beforeAll');
          cursor = { ...cursor, hooked: true };
          break;
        case 'beginRun':
          writer.defer(next.events);
          cursor = setupCursor;
          break;
        case 'judgeApproval':
          cursor = await judgeApproval(scope, next.toolCalls, cursor);
          break;
        case 'invokeBatch':
          cursor = await runBatch(scope, next, cursor);
          break;
        case 'beginLoop':
          writer.defer(next.events);
          await callHooks(scope, 'onStart');
          cursor = betweenSteps(cursor);
          break;
        case 'write':
          await writer.flush();
          cursor = written(cursor);
          break;
        case 'askModel':
          cursor = await askModel(scope, cursor);
          break;
        case 'endStep': {
          // Without a hook there is nothing to wait for: a step costs no extra promise.
          const hooked = callHooks(scope, 'afterEach');
          if (hooked !== undefined) await hooked;
          cursor = betweenSteps(cursor);
          break;
        }
        case 'stop':
          if (next.warning !== undefined)
            config.logger.warn(next.warning, { streamId: writer.streamId });
          writer.defer(next.events);
          await writer.flush();
          await callHooks(scope, 'onStop', next.stop.reason);
          break;
        case 'finish':
          await writer.flush();
          if (next.error !== undefined) throw next.error;
          return;
        default:
          // Every step kind has its effect here: a new one fails `tsc`.
          unreachable(next, 'step');
      }
    }
  } catch (error) {
    await endWithError(scope, cursor, error);
    throw error;
  } finally {
    scope.options = {};
    writer.guard = undefined;
  }
}

/** The reason of a signal aborted because the run's lease was lost, if it was. */
function leaseLost(signal: AbortSignal | undefined): ConcurrencyError | undefined {
  const reason: unknown = signal?.aborted === true ? signal.reason : undefined;
  return reason instanceof ConcurrencyError ? reason : undefined;
}

async function endWithError(scope: RunScope, cursor: RunCursor, error: unknown): Promise<void> {
  const { writer, settings } = scope;
  if (error instanceof ConcurrencyError) {
    // Another writer owns the stream now: show its events instead of a run that looks alive.
    writer.discardDeferred();
    await writer.catchUp().catch(() => undefined);
    return;
  }
  // The run is recorded even when it fails before its command was (SPEC EVT-3).
  if (cursor.phase === 'start') {
    const { mode, input, worker } = cursor.command ?? { mode: 'run' as const };
    try {
      writer.defer(runStart(writer.state, settings, mode, input, worker));
    } catch {
      // The command itself was refused: nothing of it is recorded.
    }
  }
  // What the step held back is recorded before the stop; if that write fails, it is dropped.
  await writer.flush().catch(() => writer.discardDeferred());
  if (writer.state.status !== 'running') return;
  const stop = stopWith(errorStop(error));
  try {
    writer.defer(stop.events);
    await writer.flush();
    const failure = error instanceof Error ? error : new Error(describeThrown(error));
    await callHooks(scope, 'onStop', stop.stop.reason, failure);
  } catch {
    writer.discardDeferred();
  }
}
