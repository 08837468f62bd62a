import type { ApprovalVerdict, PendingEvent, RawToolResult } from '../events/agentEvent.js';
import type { AgentState } from '../events/agentState.js';
import { toolCallOf } from '../events/stateQueries.js';
import type { ToolCall } from '../messages/toolCall.js';
import { ToolOutput } from '../messages/toolOutput.js';
import { refusalText } from '../messages/toolFeedback.js';
import { spared, verdictOf } from './approvalVerdict.js';
import type { DeciderSettings } from './deciderSettings.js';

/**
 * What to do with one call of a batch: run its tool, or answer it without running anything.
 * `ambiguous` marks a call that was started and never answered before a crash (SPEC TOOL-7).
 */
export type CallPlan =
  | {
      readonly kind: 'invoke';
      readonly toolCall: ToolCall;
      readonly ambiguous: boolean;
      /** Consume the call's decision after the tool ran, if the tool did not. */
      readonly consumeAfter: boolean;
    }
  | {
      readonly kind: 'answer';
      readonly toolCall: ToolCall;
      readonly ambiguous: true;
      readonly result: RawToolResult;
      /** The call's decision is consumed (set aside) by this answer. */
      readonly consume: boolean;
    };

/** A batch ready to run: its plans, its `ToolCallStarted` events and whether they must be durable. */
export interface BatchPlan {
  readonly plans: readonly CallPlan[];
  readonly started: readonly PendingEvent[];
  /** A side effect that must not repeat follows: the starts must survive a power loss. */
  readonly durable: boolean;
}

/**
 * Plans a batch (SPEC TOOL-2, TOOL-7). A non-idempotent call that may have run before a crash
 * runs again only when a person approves (beyond): a decision given before the crash answered
 * another question, so it is set aside and the loop asks; after the ask, a refusal answers with
 * the refusal text and an approval runs the tool. A gate's call records its approval verdict
 * with its start (SPEC HITL-13, HITL-15); `judged` holds the verdicts of the gates' conditions.
 */
export function planBatch(
  state: AgentState,
  settings: DeciderSettings,
  toolCalls: readonly ToolCall[],
  judged?: ReadonlyMap<string, ApprovalVerdict>,
): BatchPlan {
  const plans = toolCalls.map((toolCall) => planCall(state, settings, toolCall));
  const verdicts = toolCalls.map((toolCall) => verdictOf(state, settings, toolCall, judged));
  const durable = plans.some((plan, index) => {
    if (plan.kind !== 'invoke') return false;
    const policy = settings.tools.get(plan.toolCall.name);
    if (policy === undefined || policy.idempotent) return false;
    // An approval gate without an approval only asks: nothing runs that could run twice.
    return (
      !policy.gated ||
      spared(verdicts[index]) ||
      state.feedback[plan.toolCall.id]?.feedback.kind === 'approved'
    );
  });
  const started = toolCalls.map((toolCall, index): PendingEvent => {
    const approval = verdicts[index];
    return {
      type: 'ToolCallStarted',
      data: {
        toolCall,
        idempotencyKey: idempotencyKey(settings.streamId, toolCall),
        ...(approval === undefined ? {} : { approval }),
      },
    };
  });
  return { plans, started, durable };
}

/** `streamId:toolCallId`, stable across retries and processes (SPEC TOOL-7). */
export function idempotencyKey(streamId: string, toolCall: ToolCall): string {
  return `${streamId}:${toolCall.id}`;
}

function planCall(state: AgentState, settings: DeciderSettings, toolCall: ToolCall): CallPlan {
  const call = toolCallOf(state, toolCall.id);
  const policy = settings.tools.get(toolCall.name);
  const invoke = (ambiguous: boolean): CallPlan => ({
    kind: 'invoke',
    toolCall,
    ambiguous,
    consumeAfter: ambiguous,
  });
  if (call === undefined || policy === undefined || policy.idempotent) return invoke(false);
  const decision = state.feedback[toolCall.id]?.feedback;
  if (call.status === 'started') {
    return {
      kind: 'answer',
      toolCall,
      ambiguous: true,
      result: ask(toolCall),
      consume: decision !== undefined,
    };
  }
  if (call.status !== 'waiting' || call.ambiguous !== true) return invoke(false);
  if (decision === undefined)
    return { kind: 'answer', toolCall, ambiguous: true, result: ask(toolCall), consume: false };
  if (decision.kind === 'refused') {
    return {
      kind: 'answer',
      toolCall,
      ambiguous: true,
      result: { ok: true, output: ToolOutput.text(refusalText(decision)) },
      consume: true,
    };
  }
  return invoke(true);
}

function ask(toolCall: ToolCall): RawToolResult {
  return {
    ok: true,
    output: ToolOutput.feedbackRequired({
      ambiguous: true,
      message: `tool call ${toolCall.id} (${toolCall.name}) was started but never finished, so it may have run; approve to run it again`,
    }),
  };
}
