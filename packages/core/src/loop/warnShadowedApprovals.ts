import type { ToolCall } from '../messages/toolCall.js';
import type { RunScope } from './runScope.js';
import { toolCallOf } from '../events/stateQueries.js';

/**
 * SPEC HITL-5 (the gotcha is kept, beyond: it is made visible): when a call of a batch waits for
 * feedback while a sibling got an output, resumption will never re-invoke it. Records a
 * `WarningRecorded` per shadowed call and logs it.
 */
export async function warnShadowedApprovals(
  scope: RunScope,
  toolCalls: readonly ToolCall[],
): Promise<void> {
  const calls = toolCalls.map((toolCall) => toolCallOf(scope.writer.state, toolCall.id));
  const answered = calls.filter(
    (call) => call?.status === 'completed' || call?.status === 'failed',
  );
  if (answered.length === 0) return;
  for (const call of calls) {
    if (call?.status !== 'waiting' || call.shadowed === true) continue;
    const message =
      `tool call ${call.toolCall.id} (${call.toolCall.name}) waits for approval, but a sibling call of the ` +
      `same completion got an output, so resuming will not re-invoke it; have the model call it on its own`;
    scope.config.logger.warn(message, {
      streamId: scope.writer.streamId,
      toolCallId: call.toolCall.id,
    });
    await scope.writer.append([
      {
        type: 'WarningRecorded',
        data: { code: 'approvalShadowed', message, toolCallId: call.toolCall.id },
      },
    ]);
  }
}
