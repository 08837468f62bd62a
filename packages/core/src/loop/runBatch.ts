import type { ToolResult } from '../api/hooks.js';
import type { NextStep } from '../decider/nextStep.js';
import type { CallPlan } from '../decider/planBatch.js';
import { recordOutcome, type Outcome } from '../decider/recordOutcome.js';
import type { RunCursor } from '../decider/runCursor.js';
import { AgentError } from '../errors/agentError.js';
import { describeThrown, ToolError } from '../errors/toolError.js';
import { canonicalToolOutput } from '../events/canonicalToolOutput.js';
import type { RawToolResult } from '../events/agentEvent.js';
import type { ToolOutputMessage } from '../messages/chatMessage.js';
import type { ToolCall } from '../messages/toolCall.js';
import type { ToolOutput } from '../messages/toolOutput.js';
import { callHooks, transformWithHooks } from './callHooks.js';
import { InvocationContext } from './invocationContext.js';
import type { RunScope } from './runScope.js';
import { takeRecordedInputs } from './takeRecordedInputs.js';
import { toolMessageOutput } from '../decider/toolMessageOutput.js';
import { throwIfAborted } from './runAborted.js';
import { AbortRelay } from './abortRelay.js';

/**
 * The tool effect of a step (SPEC TOOL-2): `beforeTool` for each call in batch order, the starts
 * written (SPEC TOOL-7), every planned invocation at once, then each result, in batch order,
 * through `afterTool` and `onNewMessage` and recorded as the decider says. The run's signal
 * reaches the tools through an {@link AbortRelay}: after an abort, the calls that had finished
 * keep their outcomes and the others stay started (SPEC LOOP-10 with TOOL-7).
 */
export async function runBatch(
  scope: RunScope,
  batch: Extract<NextStep, { kind: 'invokeBatch' }>,
  cursor: RunCursor,
): Promise<RunCursor> {
  const { writer } = scope;
  const toolCalls = batch.plans.map((plan) => plan.toolCall);
  for (const toolCall of toolCalls) {
    // Without a hook there is nothing to wait for: a call costs no extra promise.
    const hooked = callHooks(scope, 'beforeTool', toolCall);
    if (hooked !== undefined) await hooked;
  }
  const { signal } = scope.options;
  throwIfAborted(signal, 'before its tools started');
  writer.defer(batch.started);
  // Before a side effect that must not repeat, the start has to survive even a power loss.
  await writer.flush({ durable: batch.durable });
  // Aborted while the starts were written: no tool runs, and the calls stay started (TOOL-7).
  throwIfAborted(signal, 'before its tools started; their starts are recorded');
  const at = { revision: writer.state.revision };
  const relay = signal === undefined ? undefined : new AbortRelay(signal);
  const contexts = batch.plans.map(() => new InvocationContext(writer, relay));
  const pending = batch.plans.map((plan, index) =>
    plan.kind === 'answer'
      ? Promise.resolve(fromRaw(plan.result))
      : scope.runTool(plan.toolCall, contexts[index] as InvocationContext, at),
  );
  relay?.track(pending);
  try {
    let next = cursor;
    for (const [index, plan] of batch.plans.entries()) {
      const own = await (pending[index] as Promise<ToolResult>);
      // Which tools had finished when the abort reached them: those, and only those, get an outcome.
      const finished = relay?.finishedAtAbort;
      if (finished !== undefined) {
        // SPEC LOOP-10 with TOOL-7: a call the abort cut off gets no outcome (it stays started,
        // and resuming follows TOOL-7); a sibling that had finished before it gets its own.
        for (const [later, sibling] of batch.plans.entries()) {
          if (later < index || finished[later] !== true) continue;
          const result = await (pending[later] as Promise<ToolResult>);
          const consumed = (contexts[later] as InvocationContext).consumed;
          const answered = answer(scope, next, sibling, result, consumed);
          next = answered instanceof Promise ? await answered : answered;
        }
        throwIfAborted(signal, 'while its tools ran');
      }
      const answered = answer(
        scope,
        next,
        plan,
        own,
        (contexts[index] as InvocationContext).consumed,
      );
      next = answered instanceof Promise ? await answered : answered;
    }
    return record(scope, next, { kind: 'batchEnded', toolCalls });
  } finally {
    relay?.dispose();
  }
}

/**
 * Takes one call's result through `afterTool` and `onNewMessage` and records it. A promise only
 * when a hook of either kind is registered: without hooks an answer awaits nothing.
 */
function answer(
  scope: RunScope,
  cursor: RunCursor,
  plan: CallPlan,
  own: ToolResult,
  consumed: readonly string[],
): RunCursor | Promise<RunCursor> {
  const afterTool = transformWithHooks(scope, 'afterTool', own, [plan.toolCall]);
  return afterTool instanceof Promise
    ? afterTool.then((result) => answerWith(scope, cursor, plan, own, result, consumed))
    : answerWith(scope, cursor, plan, own, afterTool, consumed);
}

function answerWith(
  scope: RunScope,
  cursor: RunCursor,
  plan: CallPlan,
  own: ToolResult,
  result: ToolResult,
  consumed: readonly string[],
): RunCursor | Promise<RunCursor> {
  const raw = toRaw(own);
  const hooked = result === own ? raw : toRaw(result);
  const output = toolMessageOutput(hooked);
  const outcome = { kind: 'toolAnswered', plan, raw, result: hooked, consumed } as const;
  if (output === undefined) return record(scope, cursor, outcome);
  const message = newToolMessage(scope, plan.toolCall, output);
  return message instanceof Promise
    ? message.then((replaced) => record(scope, cursor, { ...outcome, message: replaced }))
    : record(scope, cursor, { ...outcome, message });
}

function record(scope: RunScope, cursor: RunCursor, outcome: Outcome): RunCursor {
  takeRecordedInputs(scope, 'outcome');
  const recorded = recordOutcome(scope.writer.state, scope.settings, cursor, outcome);
  for (const warning of recorded.warnings) {
    scope.config.logger.warn(warning.message, {
      streamId: scope.writer.streamId,
      toolCallId: warning.toolCallId,
    });
  }
  scope.writer.defer(recorded.events);
  return recorded.cursor;
}

/** A result as the stream records it: a failure keeps its message. */
function toRaw(result: ToolResult): RawToolResult {
  return result.ok
    ? { ok: true, output: canonicalToolOutput(result.output) }
    : { ok: false, error: describeThrown(result.error) };
}

/** A recorded result as hooks see it: a failure is a `ToolError`. */
function fromRaw(raw: RawToolResult): ToolResult {
  return raw.ok ? raw : { ok: false, error: ToolError.executionFailed(raw.error) };
}

function newToolMessage(
  scope: RunScope,
  toolCall: ToolCall,
  output: ToolOutput,
): ToolOutputMessage | Promise<ToolOutputMessage> {
  const message: ToolOutputMessage = { role: 'tool', toolCall, output };
  const replaced = transformWithHooks(scope, 'onNewMessage', message as never);
  return replaced instanceof Promise
    ? replaced.then((value) => toolReplacement(message, value))
    : toolReplacement(message, replaced);
}

function toolReplacement(message: ToolOutputMessage, replaced: unknown): ToolOutputMessage {
  const candidate = replaced as ToolOutputMessage;
  const { toolCall } = message;
  if (candidate.role !== 'tool' || candidate.toolCall?.id !== toolCall.id) {
    throw new AgentError(
      'hookFailed',
      `an onNewMessage hook must return a tool message for tool call ${toolCall.id}`,
    );
  }
  return candidate === message
    ? candidate
    : { ...candidate, output: canonicalToolOutput(candidate.output) };
}
