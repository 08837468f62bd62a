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
import { isAgentAtCap, isLeaseLost, isRunOwned } from '../errors/fenceErrors.js';
import { claimRun } from './claimRun.js';
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
import type { RunChannel, RunOptions } from '../api/runOptions.js';

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
  channel: RunChannel = {},
): Promise<void> {
  const { writer, settings, config } = scope;
  // Already aborted: nothing starts and nothing is written (SPEC LOOP-10).
  throwIfAborted(options.signal, 'before it started, and nothing was written');
  const { worker } = channel;
  const command = {
    mode,
    ...(input === undefined ? {} : { input }),
    ...(worker === undefined ? {} : { worker }),
  };
  // A rejected start (nothing to run) appends nothing. Whether another process's run is live is
  // judged by the store, when the run's first append claims the stream (SPEC WRK-4).
  decideCommand(
    writer.state,
    settings,
    { kind: 'startRun', ...command },
    { ownRun: writer.ownsCurrentRun() },
  );
  const lease = claimRun(scope, worker?.id ?? scope.owner, options.signal);
  scope.options = lease.signal === undefined ? options : { ...options, signal: lease.signal };
  scope.channel = channel;
  const { signal } = scope.options;
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
    // The run lost the stream, or never got it (its claim met a live run, or its agent's cap):
    // nothing more of it is appended, not even its stop. It rejects with the lost lease when that
    // is what ended it, else with what did.
    const lost = writer.lost;
    if (lost !== undefined || isLeaseLost(error) || isRunOwned(error) || isAgentAtCap(error)) {
      writer.discardDeferred();
      await writer.catchUp().catch(() => undefined);
      throw lost !== undefined && causedBy(error, lost) ? lost : error;
    }
    await endWithError(scope, cursor, error);
    throw error;
  } finally {
    lease.stop();
    writer.endRun();
    scope.options = {};
    scope.channel = {};
  }
}

/** Whether `error` is `cause` itself, or the abort it caused. */
function causedBy(error: unknown, cause: Error): boolean {
  return error === cause || (error instanceof Error && error.cause === cause);
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
