import { pendingDecisions, type EventStore, type JsonValue } from '@agentlog/core';

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
 * Every call of `store` that waits for a decision (`pendingDecisions`), with when it asked,
 * oldest first; calls with no known time come last, in stream order.
 */
export async function inboxEntries(store: EventStore): Promise<InboxEntry[]> {
  const waiting = await pendingDecisions(store);
  const asked = new Map<string, string>();
  for (const streamId of new Set(waiting.map((call) => call.streamId)))
    for (const event of await store.readStream(streamId))
      if (event.type === 'FeedbackRequested') {
        const id = (event.data as { toolCall?: { id?: unknown } }).toolCall?.id;
        if (typeof id === 'string') asked.set(`${streamId}\u0000${id}`, event.metadata.at);
      }
  const entries = waiting.map((call): InboxEntry => {
    const since = asked.get(`${call.streamId}\u0000${call.toolCall.id}`);
    return {
      streamId: call.streamId,
      toolCallId: call.toolCall.id,
      tool: call.toolCall.name,
      ...(call.toolCall.args === undefined ? {} : { args: call.toolCall.args }),
      ...(call.feedbackPayload === undefined ? {} : { payload: call.feedbackPayload }),
      ...(since === undefined ? {} : { since }),
      ...(call.shadowed === true ? { shadowed: true } : {}),
      ...(call.ambiguous === true ? { ambiguous: true } : {}),
    };
  });
  const time = (entry: InboxEntry) =>
    entry.since === undefined ? Infinity : Date.parse(entry.since);
  return entries
    .map((entry, index) => ({ entry, index }))
    .sort((a, b) => time(a.entry) - time(b.entry) || a.index - b.index)
    .map(({ entry }) => entry);
}
