import type { StopCause } from '../agent/stopReason.js';
import { AgentError } from '../errors/agentError.js';
import { ConcurrencyError } from '../errors/concurrencyError.js';
import { ToolError } from '../errors/toolError.js';
import type { RunMode } from '../events/agentEvent.js';
import { callHooks } from './callHooks.js';
import { completionStep } from './completionStep.js';
import { invokeBatch } from './invokeBatch.js';
import { callsToResume, hasNewMessages } from './pendingWork.js';
import type { RunScope } from './runScope.js';
import { stopAgent } from './stopAgent.js';
import { lastMessage, lastOutputOf, toolCallOf } from '../events/stateQueries.js';

/**
 * One run (SPEC LOOP-2): `RunStarted`; on the first run `beforeAll` and the system prompt; the
 * query's text queued; open calls resumed (rejecting with `unfulfilledToolCalls` if some stay
 * open); queued texts into the history; `onStart`; then completion steps until the agent stops.
 * Every failure ends the run with stop reason `error` before it rejects (SPEC LOOP-8).
 */
export async function runAgent(scope: RunScope, mode: RunMode, input?: string): Promise<void> {
  const { writer } = scope;
  const firstRun = writer.state.runs === 0;
  try {
    // Held back with the system prompt and the query's text: a run starts in one commit.
    writer.defer([{ type: 'RunStarted', data: input === undefined ? { mode } : { mode, input } }]);
    await runBody(scope, mode, input, firstRun);
  } catch (error) {
    if (error instanceof ConcurrencyError) {
      // Another writer owns the stream now: show its events instead of a run that looks alive.
      await writer.catchUp().catch(() => undefined);
      throw error;
    }
    const failure = error instanceof Error ? error : new Error(String(error));
    // What the step held back is recorded before the stop; if that write fails, it is dropped.
    await writer.flush().catch(() => undefined);
    if (writer.state.status === 'running') {
      await stopAgent(scope, { kind: 'error', message: failure.message }, 'error', failure).catch(
        () => undefined,
      );
    }
    throw error;
  }
  const reason = writer.state.stopReason;
  if (reason?.kind === 'toolCallsOverLimit') {
    const failed = lastOutputOf(writer.state, reason.toolCall.id);
    const detail =
      failed?.role === 'tool' && failed.output.kind === 'fail' ? failed.output.text : 'failed';
    throw new AgentError(
      'toolError',
      `tool ${reason.toolCall.name} failed more often than toolRetryLimit (${scope.config.toolRetryLimit}) allows: ${detail}`,
      { cause: ToolError.executionFailed(detail) },
    );
  }
}

async function runBody(
  scope: RunScope,
  mode: RunMode,
  input: string | undefined,
  firstRun: boolean,
): Promise<void> {
  const { writer, config } = scope;
  if (firstRun) {
    await callHooks(scope, 'beforeAll');
    if (config.systemPrompt !== undefined && !writer.state.systemPromptAdded) {
      writer.defer([{ type: 'SystemPromptAdded', data: { text: config.systemPrompt } }]);
    }
  }
  if (input !== undefined) writer.defer([{ type: 'UserMessageQueued', data: { text: input } }]);

  const open = callsToResume(writer.state);
  if (open.length > 0) {
    await invokeBatch(scope, open, { resuming: true });
    if (writer.state.stopReason?.kind === 'toolCallsOverLimit') return;
    const waiting = open.filter((toolCall) => {
      const status = toolCallOf(writer.state, toolCall.id)?.status;
      return status !== 'completed' && status !== 'failed';
    });
    if (waiting.length > 0) {
      throw new AgentError(
        'unfulfilledToolCalls',
        `tool calls still wait for feedback: ${waiting.map((call) => `${call.name} (${call.id})`).join(', ')}`,
      );
    }
    // A resumed call that stopped the agent is honoured (fix: Swiftide loses it).
    if (writer.state.status === 'stopped') return;
  }
  // The query's text is still held back unless resuming wrote it: it is the newest queued text.
  const held = open.length === 0 && input !== undefined ? [input] : [];
  const queued = [...writer.state.queued, ...held];
  writer.defer(queued.map((text) => ({ type: 'UserMessageAdded', data: { text } })));
  await writer.flush();
  await callHooks(scope, 'onStart');

  const once = mode === 'queryOnce' || mode === 'runOnce';
  for (;;) {
    if (writer.state.status === 'stopped') return;
    if (!hasNewMessages(writer.state, config.stopOnAssistant)) {
      await stopAgent(scope, { kind: 'noNewMessages' }, idleCause(scope));
      return;
    }
    if (config.limit !== undefined && writer.state.completionsInRun >= config.limit) {
      config.logger.warn(`agent reached its limit of ${config.limit} completions in one run`, {
        streamId: writer.streamId,
      });
      await stopAgent(scope, { kind: 'noNewMessages' }, 'limitReached');
      return;
    }
    await completionStep(scope);
    if (once && !isStopped(scope)) {
      await stopAgent(scope, { kind: 'noNewMessages' }, 'singleStep');
      return;
    }
  }
}

// A function, not an inline check: the loop's awaits change the state behind TypeScript's back.
function isStopped(scope: RunScope): boolean {
  return scope.writer.state.status === 'stopped';
}

function idleCause(scope: RunScope): StopCause {
  const { state } = scope.writer;
  if (state.completionsInRun > 0 && state.lastResponseEmpty) return 'emptyResponse';
  return lastMessage(state)?.role === 'assistant' ? 'assistantAnswered' : 'nothingNew';
}
