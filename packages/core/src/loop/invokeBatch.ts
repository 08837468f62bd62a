import type { ToolResult } from '../agent/hooks.js';
import { toolCallHash, type ToolCall } from '../messages/toolCall.js';
import type { ToolOutputMessage } from '../messages/chatMessage.js';
import { ToolOutput } from '../messages/toolOutput.js';
import { runsOnlyWhenApproved } from '../tools/approvalRequired.js';
import { AgentError } from '../errors/agentError.js';
import { ambiguityOf, askAboutAmbiguousCall } from './ambiguousCalls.js';
import { callHooks, transformWithHooks } from './callHooks.js';
import { invokeTool } from './invokeTool.js';
import type { RunScope } from './runScope.js';
import { stopAgent } from './stopAgent.js';
import { ToolContext } from './toolContext.js';
import { warnShadowedApprovals } from './warnShadowedApprovals.js';
import { failureCountOf } from '../events/stateQueries.js';

/**
 * Runs one batch of tool calls (SPEC TOOL-2): `beforeTool` and `ToolCallStarted` in batch order,
 * all invocations concurrently, then each result through `afterTool` and into the stream in batch
 * order. Stops the agent on the first stop, failure report, feedback request or over-limit
 * failure; later calls of the batch are still recorded (SPEC STOP-7).
 */
export async function invokeBatch(
  scope: RunScope,
  toolCalls: readonly ToolCall[],
  options: { readonly resuming: boolean },
): Promise<void> {
  const { writer, config } = scope;
  for (const toolCall of toolCalls) await callHooks(scope, 'beforeTool', toolCall);
  // Read before ToolCallStarted is appended: afterwards every call of the batch looks started.
  const gated = toolCalls.map((toolCall) =>
    options.resuming ? ambiguityOf(scope, toolCall) : undefined,
  );
  // Before a side effect that must not repeat, the start has to survive even a power loss.
  const durable = toolCalls.some((toolCall) => {
    const tool = config.tools.get(toolCall.name);
    if (tool === undefined || tool.idempotent === true) return false;
    // An approval gate without an approval only asks: nothing runs that could run twice.
    const gated = (tool as { [runsOnlyWhenApproved]?: true })[runsOnlyWhenApproved] === true;
    return !gated || writer.state.feedback[toolCall.id]?.feedback.kind === 'approved';
  });
  await writer.append(
    toolCalls.map((toolCall) => ({
      type: 'ToolCallStarted' as const,
      data: { toolCall, idempotencyKey: `${writer.streamId}:${toolCall.id}` },
    })),
    { durable },
  );
  const contexts = toolCalls.map(
    () => new ToolContext(writer, { deferConsumption: true, beforeCommand: async () => {} }),
  );
  const pending = toolCalls.map((toolCall, index) => {
    const context = contexts[index] as ToolContext;
    const ambiguity = gated[index];
    if (ambiguity !== undefined) return askAboutAmbiguousCall(scope, context, toolCall, ambiguity);
    return invokeTool(config.tools.get(toolCall.name), context, toolCall);
  });
  for (const [index, toolCall] of toolCalls.entries()) {
    const raw = await (pending[index] as Promise<ToolResult>);
    const result = await transformWithHooks(scope, 'afterTool', raw, [toolCall]);
    const consumed = (contexts[index] as ToolContext).consumed;
    // Written with the call's outcome (and a stop it causes), in one commit.
    writer.defer(
      consumed.map((toolCallId) => ({ type: 'FeedbackConsumed' as const, data: { toolCallId } })),
    );
    await recordResult(scope, toolCall, result, gated[index] !== undefined);
    await writer.flush();
  }
  await warnShadowedApprovals(scope, toolCalls);
}

async function recordResult(
  scope: RunScope,
  toolCall: ToolCall,
  result: ToolResult,
  ambiguous: boolean,
): Promise<void> {
  const { writer, config } = scope;
  if (!result.ok) {
    // The count saturates at limit + 1: the failure that reaches it stops the agent, and a twin
    // call of the same batch is still recorded without counting past it.
    const failureCount = Math.min(
      failureCountOf(writer.state, toolCallHash(toolCall)) + 1,
      config.toolRetryLimit + 1,
    );
    const error = result.error.message;
    const message = await newToolMessage(scope, toolCall, ToolOutput.fail(error));
    const replaced = message.output.kind !== 'fail' || message.output.text !== error;
    writer.defer([
      {
        type: 'ToolCallFailed',
        data: {
          toolCallId: toolCall.id,
          error,
          failureCount,
          ...(replaced ? { output: message.output } : {}),
        },
      },
    ]);
    if (failureCount > config.toolRetryLimit) {
      await stopAgent(scope, { kind: 'toolCallsOverLimit', toolCall }, 'toolCallsOverLimit');
    }
    return;
  }
  const { output } = result;
  if (output.kind === 'feedbackRequired') {
    const payload = output.payload;
    writer.defer([
      {
        type: 'FeedbackRequested',
        data: {
          toolCall,
          ...(payload === undefined ? {} : { payload }),
          ...(ambiguous ? { ambiguous: true } : {}),
        },
      },
    ]);
    const reason = {
      kind: 'feedbackRequired' as const,
      toolCall,
      ...(payload === undefined ? {} : { payload }),
    };
    await stopAgent(scope, reason, 'feedbackRequired');
    return;
  }
  const message = await newToolMessage(scope, toolCall, output);
  writer.defer([
    { type: 'ToolCallCompleted', data: { toolCallId: toolCall.id, output: message.output } },
  ]);
  // The agent inspects the output as afterTool left it (SPEC STOP-8), not onNewMessage's copy.
  if (output.kind === 'stop') {
    const reason = {
      kind: 'requestedByTool' as const,
      toolCall,
      ...(output.payload === undefined ? {} : { payload: output.payload }),
    };
    await stopAgent(scope, reason, 'toolRequestedStop');
  } else if (output.kind === 'agentFailed') {
    const reason = {
      kind: 'agentFailed' as const,
      ...(output.payload === undefined ? {} : { payload: output.payload }),
    };
    await stopAgent(scope, reason, 'toolReportedFailure');
  }
}

async function newToolMessage(
  scope: RunScope,
  toolCall: ToolCall,
  output: ToolOutput,
): Promise<ToolOutputMessage> {
  const message: ToolOutputMessage = { role: 'tool', toolCall, output };
  const replaced = await transformWithHooks(scope, 'onNewMessage', message as never);
  const candidate = replaced as unknown as ToolOutputMessage;
  if (candidate.role !== 'tool' || candidate.toolCall?.id !== toolCall.id) {
    throw new AgentError(
      'hookFailed',
      `an onNewMessage hook must return a tool message for tool call ${toolCall.id}`,
    );
  }
  return candidate;
}
