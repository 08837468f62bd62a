import type { PendingEvent, RawToolResult } from '../events/agentEvent.js';
import type { AgentState } from '../events/agentState.js';
import { failureCountOf, toolCallOf } from '../events/stateQueries.js';
import type { AssistantMessage, ToolOutputMessage } from '../messages/chatMessage.js';
import { toolCallHash, type ToolCall } from '../messages/toolCall.js';
import type { CompletionResponse } from '../ports/chatCompletion.js';
import type { DeciderSettings } from './deciderSettings.js';
import type { CallPlan } from './planBatch.js';
import { withStop, type RunCursor, type StopCandidate } from './runCursor.js';
import { canonicalJson } from '../support/json.js';

/** What an effect produced, as the interpreter hands it to the decider. */
export type Outcome =
  /** The model answered: its raw answer, before hooks (SPEC LOOP-4, RPL-1). */
  | {
      readonly kind: 'modelResponded';
      readonly requestFingerprint: string;
      readonly response: CompletionResponse;
    }
  /** The assistant message that `afterCompletion` and `onNewMessage` made of the answer. */
  | { readonly kind: 'assistantMessage'; readonly message: AssistantMessage }
  /** One call of a batch was answered: the tool's own result, and what hooks made of it. */
  | {
      readonly kind: 'toolAnswered';
      readonly plan: CallPlan;
      /** The tool's own result, before hooks (SPEC RPL-5). */
      readonly raw: RawToolResult;
      /** After `afterTool`: what the agent inspects (SPEC STOP-8). */
      readonly result: RawToolResult;
      /** After `onNewMessage`: what enters the history; absent for a feedback request. */
      readonly message?: ToolOutputMessage;
      /** Calls whose decision the invocation read (SPEC HITL-3). */
      readonly consumed: readonly string[];
    }
  /** Every call of a batch was answered. */
  | { readonly kind: 'batchEnded'; readonly toolCalls: readonly ToolCall[] };

/** The events that record an outcome, and the cursor after it. */
export interface Recorded {
  readonly events: readonly PendingEvent[];
  readonly cursor: RunCursor;
  /** A warning to log with the events (SPEC HITL-5). */
  readonly warnings: readonly { readonly message: string; readonly toolCallId: string }[];
}

/**
 * Which events record an effect's outcome: pure and total. It holds the retry counting (SPEC
 * TOOL-3), the first stop of a step (STOP-7, STOP-8, HITL-2), shadowed approvals (HITL-5), and
 * what of a tool's own result is kept next to what hooks made of it (RPL-5).
 */
export function recordOutcome(
  state: AgentState,
  settings: DeciderSettings,
  cursor: RunCursor,
  outcome: Outcome,
): Recorded {
  switch (outcome.kind) {
    case 'modelResponded': {
      const asked: RunCursor = { ...cursor, asked: true };
      const stop = modelStop(outcome.response, state.revision + 1);
      return plain(stop === undefined ? asked : withStop(asked, stop), [
        {
          type: 'ModelResponded',
          data: { requestFingerprint: outcome.requestFingerprint, response: outcome.response },
        },
      ]);
    }
    case 'assistantMessage': {
      // Calls of an answer the model did not finish (token limit, filter, refusal) are not run.
      const cut = cursor.stop !== undefined && modelCauses.has(cursor.stop.cause);
      const { message } = outcome;
      const kept = cut && message.toolCalls.length > 0 ? { ...message, toolCalls: [] } : message;
      const empty =
        kept.text === undefined && kept.refusal === undefined && kept.toolCalls.length === 0;
      return plain(
        cursor,
        empty ? [] : [{ type: 'AssistantMessageAdded', data: { message: kept } }],
      );
    }
    case 'toolAnswered':
      return toolAnswered(state, settings, cursor, outcome);
    case 'batchEnded':
      return batchEnded(state, cursor, outcome.toolCalls);
  }
}

const plain = (cursor: RunCursor, events: readonly PendingEvent[]): Recorded => ({
  events,
  cursor,
  warnings: [],
});

function toolAnswered(
  state: AgentState,
  settings: DeciderSettings,
  cursor: RunCursor,
  outcome: Extract<Outcome, { kind: 'toolAnswered' }>,
): Recorded {
  const { plan, raw, result, message } = outcome;
  const { toolCall } = plan;
  const consumed = [...outcome.consumed];
  const ownDecision = state.feedback[toolCall.id] !== undefined && !consumed.includes(toolCall.id);
  if (ownDecision && (plan.kind === 'answer' ? plan.consume : plan.consumeAfter)) {
    consumed.push(toolCall.id);
  }
  const events: PendingEvent[] = consumed.map((toolCallId) => ({
    type: 'FeedbackConsumed',
    data: { toolCallId },
  }));
  const rawUnless = (implied: RawToolResult) => (sameResult(raw, implied) ? {} : { raw });
  if (!result.ok) {
    // The count saturates at limit + 1: the failure that reaches it stops the agent, and a twin
    // call of the same batch is still recorded without counting past it.
    const failureCount = Math.min(
      failureCountOf(state, toolCallHash(toolCall)) + 1,
      settings.toolRetryLimit + 1,
    );
    const output = message?.output;
    const replaced =
      output !== undefined && (output.kind !== 'fail' || output.text !== result.error);
    events.push({
      type: 'ToolCallFailed',
      data: {
        toolCallId: toolCall.id,
        error: result.error,
        failureCount,
        ...(replaced ? { output } : {}),
        ...rawUnless({ ok: false, error: result.error }),
      },
    });
    const next =
      failureCount > settings.toolRetryLimit
        ? withStop(cursor, {
            reason: { kind: 'toolCallsOverLimit', toolCall },
            cause: 'toolCallsOverLimit',
            at: state.revision + 1,
          })
        : cursor;
    return { events, cursor: next, warnings: [] };
  }
  const { output } = result;
  if (output.kind === 'feedbackRequired') {
    const { payload } = output;
    events.push({
      type: 'FeedbackRequested',
      data: {
        toolCall,
        ...(payload === undefined ? {} : { payload }),
        ...(plan.ambiguous ? { ambiguous: true } : {}),
        ...rawUnless(result),
      },
    });
    const reason = {
      kind: 'feedbackRequired' as const,
      toolCall,
      ...(payload === undefined ? {} : { payload }),
    };
    return {
      events,
      cursor: withStop(cursor, { reason, cause: 'feedbackRequired', at: state.revision + 1 }),
      warnings: [],
    };
  }
  const entered = message?.output ?? output;
  events.push({
    type: 'ToolCallCompleted',
    data: { toolCallId: toolCall.id, output: entered, ...rawUnless({ ok: true, output: entered }) },
  });
  // The agent inspects the output as afterTool left it (SPEC STOP-8), not onNewMessage's copy.
  let next = cursor;
  if (output.kind === 'stop') {
    next = withStop(cursor, {
      reason: {
        kind: 'requestedByTool',
        toolCall,
        ...(output.payload === undefined ? {} : { payload: output.payload }),
      },
      cause: 'toolRequestedStop',
      at: state.revision + 1,
    });
  } else if (output.kind === 'agentFailed') {
    next = withStop(cursor, {
      reason: {
        kind: 'agentFailed',
        ...(output.payload === undefined ? {} : { payload: output.payload }),
      },
      cause: 'toolReportedFailure',
      at: state.revision + 1,
    });
  }
  return { events, cursor: next, warnings: [] };
}

/**
 * SPEC HITL-5 (the gotcha is kept, beyond: it is made visible): when a call of a batch waits for
 * feedback while a sibling got an output, resumption will never re-invoke it.
 */
function batchEnded(
  state: AgentState,
  cursor: RunCursor,
  toolCalls: readonly ToolCall[],
): Recorded {
  const calls = toolCalls.map((toolCall) => toolCallOf(state, toolCall.id));
  const answered = calls.some((call) => call?.status === 'completed' || call?.status === 'failed');
  const events: PendingEvent[] = [];
  const warnings: { message: string; toolCallId: string }[] = [];
  for (const call of answered ? calls : []) {
    // A call the loop asks about after a crash is resumed whatever follows it (TOOL-7).
    if (call?.status !== 'waiting' || call.shadowed === true || call.ambiguous === true) continue;
    const message =
      `tool call ${call.toolCall.id} (${call.toolCall.name}) waits for approval, but a sibling call of the ` +
      `same completion got an output, so resuming will not re-invoke it; have the model call it on its own`;
    events.push({
      type: 'WarningRecorded',
      data: { code: 'approvalShadowed', message, toolCallId: call.toolCall.id },
    });
    warnings.push({ message, toolCallId: call.toolCall.id });
  }
  return { events, cursor: { ...cursor, invoked: toolCalls }, warnings };
}

/** Whether two results record the same JSON; most often they are the very same output. */
function sameResult(a: RawToolResult, b: RawToolResult): boolean {
  if (a === b || (a.ok && b.ok && a.output === b.output)) return true;
  return canonicalJson(a) === canonicalJson(b);
}

const modelCauses: ReadonlySet<string> = new Set(['modelRefused', 'tokenLimit', 'contentFiltered']);

/**
 * The stop an answer itself asks for (SPEC LOOP-11): a refusal, a filtered answer, and an answer
 * cut by the token limit end the run with their own cause; a cut tool call is not a tool failure
 * and is not retried.
 */
function modelStop(response: CompletionResponse, at: number): StopCandidate | undefined {
  const reason = { kind: 'noNewMessages' } as const;
  if (response.refusal !== undefined) return { reason, cause: 'modelRefused', at };
  if (response.finishReason === 'contentFilter') return { reason, cause: 'contentFiltered', at };
  if (response.finishReason === 'length') return { reason, cause: 'tokenLimit', at };
  return undefined;
}
