import { approvalCondition, type ApprovalCondition } from '../api/approvalGate.js';
import type { RunCursor } from '../decider/runCursor.js';
import { describeThrown } from '../errors/toolError.js';
import type { ApprovalVerdict } from '../events/agentEvent.js';
import type { ToolCall } from '../messages/toolCall.js';
import { InvocationContext } from './invocationContext.js';
import { throwIfAborted } from './runAborted.js';
import type { RunScope } from './runScope.js';

const REQUIRED: ApprovalVerdict = Object.freeze({ kind: 'required' });
const NOT_REQUIRED: ApprovalVerdict = Object.freeze({ kind: 'notRequired' });

/**
 * The effect `judgeApproval` (SPEC HITL-13): asks each call's gate condition, in batch order,
 * whether the call needs a person, and hands the verdicts to the decider in the cursor; the batch
 * records them with its starts. A condition that throws, or answers anything but a boolean,
 * fails safe: the call waits, and the verdict says why. Reading a decision in a condition does
 * not consume it.
 */
export async function judgeApproval(
  scope: RunScope,
  toolCalls: readonly ToolCall[],
  cursor: RunCursor,
): Promise<RunCursor> {
  const verdicts = new Map(cursor.verdicts);
  for (const toolCall of toolCalls) {
    const tool = scope.config.tools.get(toolCall.name);
    const when = tool === undefined ? undefined : approvalCondition(tool);
    const context = new InvocationContext(scope.writer, scope.options);
    verdicts.set(toolCall.id, when === undefined ? REQUIRED : await judge(when, toolCall, context));
  }
  throwIfAborted(scope.options.signal, 'while it judged which calls need approval');
  return { ...cursor, verdicts };
}

async function judge(
  when: ApprovalCondition,
  toolCall: ToolCall,
  context: InvocationContext,
): Promise<ApprovalVerdict> {
  let args: unknown;
  try {
    args = toolCall.args === undefined ? undefined : JSON.parse(toolCall.args);
  } catch {
    return { kind: 'required', error: 'its arguments are not JSON, so when was not asked' };
  }
  let answer: unknown;
  try {
    answer = await when(args, context);
  } catch (error) {
    return { kind: 'required', error: `when threw: ${describeThrown(error)}` };
  }
  if (answer === true) return REQUIRED;
  if (answer === false) return NOT_REQUIRED;
  const got = answer === null ? 'null' : typeof answer;
  return { kind: 'required', error: `when answered ${got}, not true or false` };
}
