import type { ApprovalVerdict } from '../events/agentEvent.js';
import type { AgentState } from '../events/agentState.js';
import { toolCallOf } from '../events/stateQueries.js';
import type { ToolCall } from '../messages/toolCall.js';
import type { DeciderSettings } from './deciderSettings.js';

/**
 * The calls of a batch whose gate has a condition to judge before they start (SPEC HITL-13):
 * new calls (never started) of a conditional gate that no approval for the run covers and that
 * the interpreter has not judged yet. A call started before keeps the verdict it recorded.
 */
export function callsToJudge(
  state: AgentState,
  settings: DeciderSettings,
  toolCalls: readonly ToolCall[],
  judged: ReadonlyMap<string, ApprovalVerdict> | undefined,
): ToolCall[] {
  return toolCalls.filter(
    (toolCall) =>
      settings.tools.get(toolCall.name)?.conditional === true &&
      judged?.has(toolCall.id) !== true &&
      toolCallOf(state, toolCall.id)?.status === 'open' &&
      runApproval(state, toolCall) === undefined,
  );
}

/**
 * The verdict a gate's call records with its start (SPEC HITL-13, HITL-15), or `undefined` for a
 * plain gate's call that waits as it always did (and for a tool that is no gate):
 * - a verdict already recorded or just judged that spares the person stands;
 * - otherwise an approval for the run covers a call that has no decision of its own and was not
 *   left ambiguous by a crash (that one still asks a person, SPEC TOOL-7);
 * - otherwise the recorded or judged `required`, if any.
 */
export function verdictOf(
  state: AgentState,
  settings: DeciderSettings,
  toolCall: ToolCall,
  judged: ReadonlyMap<string, ApprovalVerdict> | undefined,
): ApprovalVerdict | undefined {
  if (settings.tools.get(toolCall.name)?.gated !== true) return undefined;
  const call = toolCallOf(state, toolCall.id);
  const known = call?.approval ?? judged?.get(toolCall.id);
  if (known !== undefined && known.kind !== 'required') return known;
  const covered =
    state.feedback[toolCall.id] === undefined &&
    call?.ambiguous !== true &&
    (call?.status === 'open' || call?.status === 'waiting');
  return (covered ? runApproval(state, toolCall) : undefined) ?? known;
}

/** Whether a verdict lets the gate run its tool without a person's decision. */
export function spared(verdict: ApprovalVerdict | undefined): boolean {
  return verdict !== undefined && verdict.kind !== 'required';
}

/** The approval for the run that covers calls of this tool now, if one does (SPEC HITL-15). */
function runApproval(state: AgentState, toolCall: ToolCall): ApprovalVerdict | undefined {
  const approval = state.runApprovals?.[toolCall.name];
  if (approval?.active !== true || approval.toolCallId === toolCall.id) return undefined;
  return {
    kind: 'approvedForRun',
    toolCallId: approval.toolCallId,
    ...(approval.by === undefined ? {} : { by: approval.by }),
  };
}
