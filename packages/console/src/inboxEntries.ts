import { pendingDecisions, type EventStore, type JsonValue } from '@agentlog/core';
import { streamsThatMayWait } from '@agentlog/core/read-models';
import { storedEvents } from './storedEvents.js';

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

/** What the inbox last saw of each stream: the revision it folded, and its waiting calls. */
export type InboxMemo = Map<string, { readonly revision: number; readonly entries: InboxEntry[] }>;

/**
 * Every call of `store` that waits for a decision (`pendingDecisions`), with when it asked,
 * oldest first; calls with no known time come last, in stream order.
 *
 * A store with a work index (SQLite, PostgreSQL) lists a stream stopped for a person's decision as
 * `waiting` and a finished one as `idle` (SPEC WRK-2): only the streams it does not list as `idle`
 * are folded, each time, and `memo` is not used. On a store without one (JSONL, KurrentDB), with a
 * `memo` kept between calls, only the streams that changed since the last call are folded again:
 * a stream with no event past the revision the memo folded keeps its calls. Streams are
 * append-only, so a stream at the same revision holds the same events.
 */
export async function inboxEntries(
  store: EventStore,
  memo: InboxMemo = new Map(),
): Promise<InboxEntry[]> {
  if (store.work !== undefined) {
    const streamIds = await streamsThatMayWait(store);
    const fresh = await entriesOf(store, streamIds);
    return oldestFirst(streamIds.flatMap((streamId) => fresh.get(streamId) ?? []));
  }
  const streamIds = await store.listStreams();
  const revisions = new Map<string, number>();
  for (const streamId of streamIds) {
    const known = memo.get(streamId);
    // A stream the memo folded changed only if it holds an event past that revision: reading
    // there returns nothing for an unchanged stream, which costs a store far less than an event.
    if (
      known !== undefined &&
      (await storedEvents(store, streamId, { fromRevision: known.revision + 1, maxCount: 1 }))
        .length === 0
    )
      continue;
    const last = (await storedEvents(store, streamId, { direction: 'backwards', maxCount: 1 }))[0];
    if (last !== undefined) revisions.set(streamId, last.metadata.revision);
  }
  const listed = new Set(streamIds);
  for (const streamId of memo.keys()) if (!listed.has(streamId)) memo.delete(streamId);
  const changed = [...revisions.keys()];
  // A stream appended to after its revision was read is folded further than that revision: the
  // memo keeps the older revision, so the next call folds it again. Never a stale answer.
  const fresh = await entriesOf(store, changed);
  for (const streamId of changed)
    memo.set(streamId, {
      revision: revisions.get(streamId) ?? -1,
      entries: fresh.get(streamId) ?? [],
    });
  return oldestFirst(streamIds.flatMap((streamId) => memo.get(streamId)?.entries ?? []));
}

/** The entries by when they asked, oldest first; those with no known time last, in their order. */
function oldestFirst(entries: readonly InboxEntry[]): InboxEntry[] {
  const time = (entry: InboxEntry) =>
    entry.since === undefined ? Infinity : Date.parse(entry.since);
  return entries
    .map((entry, index) => ({ entry, index }))
    .sort((a, b) => time(a.entry) - time(b.entry) || a.index - b.index)
    .map(({ entry }) => entry);
}

/** The waiting calls of `streamIds`, per stream, in stream order. */
async function entriesOf(
  store: EventStore,
  streamIds: readonly string[],
): Promise<Map<string, InboxEntry[]>> {
  const byStream = new Map<string, InboxEntry[]>();
  if (streamIds.length === 0) return byStream;
  const waiting = await pendingDecisions(store, { streamIds });
  const asked = new Map<string, string>();
  for (const streamId of new Set(waiting.map((call) => call.streamId)))
    for (const event of await store.readStream(streamId))
      if (event.type === 'FeedbackRequested') {
        const id = (event.data as { toolCall?: { id?: unknown } }).toolCall?.id;
        if (typeof id === 'string') asked.set(`${streamId}\u0000${id}`, event.metadata.at);
      }
  for (const call of waiting) {
    const since = asked.get(`${call.streamId}\u0000${call.toolCall.id}`);
    const entry: InboxEntry = {
      streamId: call.streamId,
      toolCallId: call.toolCall.id,
      tool: call.toolCall.name,
      ...(call.toolCall.args === undefined ? {} : { args: call.toolCall.args }),
      ...(call.feedbackPayload === undefined ? {} : { payload: call.feedbackPayload }),
      ...(since === undefined ? {} : { since }),
      ...(call.shadowed === true ? { shadowed: true } : {}),
      ...(call.ambiguous === true ? { ambiguous: true } : {}),
    };
    byStream.set(call.streamId, [...(byStream.get(call.streamId) ?? []), entry]);
  }
  return byStream;
}
