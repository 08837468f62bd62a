import { describeThrown } from '../errors/toolError.js';
import type { StopReason } from '../events/stopReason.js';
import { decideCommand } from '../decider/decideCommand.js';
import { nextStep, stopWith } from '../decider/nextStep.js';
import { betweenSteps, setupCursor, type RunCursor } from '../decider/runCursor.js';
import { ConcurrencyError } from '../errors/concurrencyError.js';
import type { RunMode } from '../events/agentEvent.js';
import { askModel } from './askModel.js';
import { callHooks } from './callHooks.js';
import { runBatch } from './runBatch.js';
import { takeInbox } from './takeInbox.js';
import { throwIfAborted } from './runAborted.js';
import { isAgentlogError } from '../errors/agentlogError.js';
import type { RunOptions, RunScope } from './runScope.js';

/**
 * The one interpreter of a run: it asks the decider what happens next, performs that effect
 * through the ports and hooks, and appends the events the decider records for its outcome. It is
 * the only code that appends during a run. It writes when the rules need it: before the model is
 * asked, before tools run (SPEC TOOL-7), and when the run ends. Every failure ends the run with
 * stop reason `error` before it rejects (SPEC LOOP-8).
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
  const firstRun = writer.state.runs === 0;
  // A rejected start (nothing to run, a foreign run's lease) appends nothing.
  const start = decideCommand(
    writer.state,
    settings,
    { kind: 'startRun', mode, ...(input === undefined ? {} : { input }) },
    // A run this writer started and could not end (a store outage) is its own, not a foreign one.
    { clock: config.clock, ownRun: writer.ownsCurrentRun() },
  );
  scope.inbox.length = 0;
  scope.options = options;
  let started = false;
  try {
    // beforeAll sees the stream as it was: the system prompt comes after it (SPEC LOOP-2 (2)).
    if (firstRun) await callHooks(scope, 'beforeAll');
    writer.defer(start);
    started = true;
    let cursor: RunCursor = setupCursor;
    for (;;) {
      throwIfAborted(signal, 'between two steps');
      cursor = takeInbox(scope, cursor);
      const next = nextStep(writer.state, settings, cursor);
      switch (next.kind) {
        case 'invokeBatch':
          cursor = await runBatch(scope, next, cursor);
          break;
        case 'beginLoop':
          writer.defer(next.events);
          await callHooks(scope, 'onStart');
          cursor = betweenSteps(cursor);
          break;
        case 'askModel':
          cursor = await askModel(scope, cursor);
          break;
        case 'endStep':
          await callHooks(scope, 'afterEach');
          cursor = betweenSteps(cursor);
          break;
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
      }
    }
  } catch (error) {
    // The run is recorded even when it fails at once (SPEC EVT-3).
    if (!started) writer.defer(start);
    await endWithError(scope, error);
    throw error;
  } finally {
    scope.inbox.length = 0;
    scope.options = {};
  }
}

async function endWithError(scope: RunScope, error: unknown): Promise<void> {
  const { writer } = scope;
  if (error instanceof ConcurrencyError) {
    // Another writer owns the stream now: show its events instead of a run that looks alive.
    writer.discardDeferred();
    await writer.catchUp().catch(() => undefined);
    return;
  }
  const failure = error instanceof Error ? error : new Error(describeThrown(error));
  // What the step held back is recorded before the stop; if that write fails, it is dropped.
  await writer.flush().catch(() => writer.discardDeferred());
  if (writer.state.status !== 'running') return;
  const reason: StopReason = { kind: 'error', message: failure.message };
  const aborted = isAgentlogError(error) && error.code === 'aborted';
  const stop = stopWith({ reason, cause: aborted ? 'aborted' : 'error' });
  try {
    writer.defer(stop.events);
    await writer.flush();
    await callHooks(scope, 'onStop', reason, failure);
  } catch {
    writer.discardDeferred();
  }
}
