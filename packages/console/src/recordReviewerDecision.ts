import {
  isAgentlogError,
  recordDecision,
  ToolFeedback,
  type AgentState,
  type EventStore,
  type JsonValue,
  type StreamEvent,
} from '@agentlog/core';
import { callsAwaitingDecision, stateOf } from '@agentlog/core/read-models';
import { storedEvents } from './storedEvents.js';

/** A reviewer's decision as the console receives it, from a form or `POST /api/decisions`. */
export interface DecisionRequest {
  readonly streamId: string;
  readonly toolCallId: string;
  readonly decision: 'approve' | 'refuse';
  /** For the audit only: the model never reads it. */
  readonly note?: string;
  /** Handed to tools that read it (SPEC HITL-9). */
  readonly payload?: JsonValue;
  /** For a refusal: words for the model (SPEC HITL-14). */
  readonly reason?: string;
  /** `run`: the approval covers the tool's later calls in the run that follows (SPEC HITL-15). */
  readonly scope?: 'call' | 'run';
  /** The stream revision the page showed, to say what changed when the call no longer waits. */
  readonly shownRevision?: number;
}

/** What came of a decision: the recorded `FeedbackReceived`, or why nothing was written. */
export type DecisionOutcome =
  | { readonly ok: true; readonly event: StreamEvent }
  | { readonly ok: false; readonly status: 400 | 404 | 409; readonly message: string };

/**
 * Records `request` as `by`'s decision (`recordDecision`), `by` being the signed-in reviewer and
 * never a field of the request (SPEC REV-3). A call that no longer waits (decided, answered or
 * cut off since the page was shown) is refused with 409 and a message saying what happened, and
 * nothing is written (SPEC REV-4); so is a call another reviewer decides on at the same moment.
 */
export async function recordReviewerDecision(
  store: EventStore,
  request: DecisionRequest,
  by: string,
): Promise<DecisionOutcome> {
  const { streamId, toolCallId, decision, note, payload, reason, scope } = request;
  if (decision === 'approve' && reason !== undefined)
    return { ok: false, status: 400, message: 'an approval takes no reason: only a refusal does' };
  if (decision === 'refuse' && scope === 'run')
    return {
      ok: false,
      status: 400,
      message: 'only an approval can cover the rest of the run; a refusal answers its one call',
    };
  const draft = decision === 'approve' ? ToolFeedback.approved() : ToolFeedback.refused();
  const withReason = reason === undefined ? draft : draft.withReason(reason);
  const feedback = payload === undefined ? withReason : withReason.withPayload(payload);
  try {
    // The decider judges the decision (SPEC HITL-12); the console only explains a refusal.
    const { events } = await recordDecision(store, streamId, toolCallId, feedback, {
      by,
      ...(note === undefined ? {} : { note }),
      ...(scope === 'run' ? { scope } : {}),
    });
    const event = events.find((appended) => appended.type === 'FeedbackReceived');
    if (event === undefined) throw new Error(`no decision on ${toolCallId} was appended`);
    return { ok: true, event };
  } catch (error) {
    if (!isAgentlogError(error) || error.code !== 'invalidFeedback') throw error;
    // Nothing was written: say why, from the stream as it is now (this process's fold of it).
    const stored = await storedEvents(store, streamId, { direction: 'backwards', maxCount: 1 });
    if (stored.length === 0) return { ok: false, status: 404, message: `no stream ${streamId}` };
    const state = await stateOf(store, streamId);
    if (state.toolCalls[toolCallId] === undefined)
      return {
        ok: false,
        status: 404,
        message: `stream ${streamId} has no tool call ${toolCallId}`,
      };
    return {
      ok: false,
      status: 409,
      message:
        noLongerWaits(state, toolCallId, request.shownRevision) ??
        `nothing was recorded: ${error.message}`,
    };
  }
}

/**
 * Why `toolCallId` no longer waits for a decision in `state`, or `undefined` when it still does.
 * `shownRevision` (what the reviewer's page showed) is named when the stream moved on since.
 */
export function noLongerWaits(
  state: AgentState,
  toolCallId: string,
  shownRevision?: number,
): string | undefined {
  if (callsAwaitingDecision(state).some((call) => call.toolCall.id === toolCallId))
    return undefined;
  const call = state.toolCalls[toolCallId];
  const decided = state.feedback[toolCallId];
  const what =
    decided !== undefined
      ? `it was already ${decided.feedback.kind}${decided.by === undefined ? '' : ` by ${decided.by}`}`
      : call === undefined
        ? 'the stream has no such call'
        : call.status === 'completed' || call.status === 'failed'
          ? `it was answered meanwhile (${call.status})`
          : call.status === 'waiting'
            ? 'it no longer waits (cut off meanwhile)'
            : `it no longer waits for a decision (${call.status})`;
  const moved =
    shownRevision !== undefined && shownRevision !== state.revision
      ? ` The page showed revision ${shownRevision}; the stream is at revision ${state.revision}.`
      : '';
  return `Nothing was recorded: ${toolCallId} no longer waits for a decision: ${what}.${moved} Reload the page to see the call as it is now.`;
}
