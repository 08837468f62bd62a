import type { EventStore, JsonValue } from '@agentlog/core';
import { waitingCalls, type UnreadableStream } from '@agentlog/core/read-models';

/** A call that waits for a reviewer, as the inbox and `GET /api/pending` show it. */
export interface InboxEntry {
  readonly streamId: string;
  readonly toolCallId: string;
  readonly tool: string;
  /** The arguments as the model sent them (JSON text). */
  readonly args?: string;
  /** The payload of its feedback request, when it has one. */
  readonly payload?: JsonValue;
  /** When it asked for a decision (its last `FeedbackRequested`), ISO time. */
  readonly since?: string;
  /** A sibling's output shadowed its approval (SPEC HITL-5). */
  readonly shadowed?: boolean;
  /** Started before a crash, it may have run (SPEC TOOL-7). */
  readonly ambiguous?: boolean;
}

/**
 * Every call of `store` that waits for a decision, as the inbox shows it: the core read model
 * `waitingCalls` (oldest question first), with the streams it could not read, which the inbox
 * flags instead of failing (one damaged stream never hides the others).
 */
export async function inboxEntries(
  store: EventStore,
): Promise<{ readonly entries: InboxEntry[]; readonly unreadable: readonly UnreadableStream[] }> {
  const { calls, unreadable } = await waitingCalls(store);
  const entries = calls.map((call): InboxEntry => ({
    streamId: call.streamId,
    toolCallId: call.toolCall.id,
    tool: call.toolCall.name,
    ...(call.toolCall.args === undefined ? {} : { args: call.toolCall.args }),
    ...(call.feedbackPayload === undefined ? {} : { payload: call.feedbackPayload }),
    ...(call.askedAt === undefined ? {} : { since: call.askedAt }),
    ...(call.shadowed === true ? { shadowed: true } : {}),
    ...(call.ambiguous === true ? { ambiguous: true } : {}),
  }));
  return { entries, unreadable };
}
