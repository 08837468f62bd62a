import type { ToolResult } from '../agent/hooks.js';
import type { ToolCall } from '../messages/toolCall.js';
import { ToolOutput } from '../messages/toolOutput.js';
import { REFUSAL_TEXT } from '../tools/approvalRequired.js';
import { invokeTool } from './invokeTool.js';
import type { RunScope } from './runScope.js';
import type { ToolContext } from './toolContext.js';
import { toolCallOf } from '../events/stateQueries.js';

/**
 * Where a resumed call stands after a crash (SPEC TOOL-7): `crashed` when it was started and never
 * answered, `asked` when the loop already asked a person about it. `undefined` for idempotent
 * tools and ordinary calls.
 */
export type Ambiguity = 'crashed' | 'asked';

/** The ambiguity of a call about to be resumed; read it before the call is started again. */
export function ambiguityOf(scope: RunScope, toolCall: ToolCall): Ambiguity | undefined {
  const call = toolCallOf(scope.writer.state, toolCall.id);
  const tool = scope.config.tools.get(toolCall.name);
  if (call === undefined || tool === undefined || tool.idempotent === true) return undefined;
  if (call.status === 'started') return 'crashed';
  return call.status === 'waiting' && call.ambiguous === true ? 'asked' : undefined;
}

/**
 * A non-idempotent call that may or may not have run before a crash runs again only when a
 * person approves (SPEC TOOL-7, beyond). A decision given before the crash answered another
 * question, so it is set aside when the loop asks; an approval given after is left for the tool
 * itself (an approval wrapper reads it), and consumed here if the tool does not.
 */
export async function askAboutAmbiguousCall(
  scope: RunScope,
  context: ToolContext,
  toolCall: ToolCall,
  ambiguity: Ambiguity,
): Promise<ToolResult> {
  const ask: ToolResult = {
    ok: true,
    output: ToolOutput.feedbackRequired({
      ambiguous: true,
      message: `tool call ${toolCall.id} (${toolCall.name}) was started but never finished, so it may have run; approve to run it again`,
    }),
  };
  if (ambiguity === 'crashed') {
    await context.hasReceivedFeedback(toolCall);
    return ask;
  }
  const decision = context.peekFeedback(toolCall);
  if (decision === undefined) return ask;
  if (decision.kind === 'refused') {
    await context.hasReceivedFeedback(toolCall);
    return { ok: true, output: ToolOutput.text(REFUSAL_TEXT) };
  }
  const result = await invokeTool(scope.config.tools.get(toolCall.name), context, toolCall);
  await context.hasReceivedFeedback(toolCall);
  return result;
}
