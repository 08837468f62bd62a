import type { AgentEventType } from './agentEvent.js';

/** Turns stored data of one event type into the next schema version's shape (SPEC EVT-5). */
export type Upcaster = (data: unknown) => unknown;

/**
 * The upcasters of one step, from a version to the next: by event type, and under `'*'` the one
 * for every type that has no entry of its own (an identity step, when only optional fields were
 * added).
 */
export type UpcasterStep = { readonly [T in AgentEventType | '*']?: Upcaster };

/**
 * Upcasters keyed by the schema version they upgrade FROM, then by event type. Decoding an event
 * of version `v` applies `table[v]`, `table[v + 1]`, … up to `CURRENT_SCHEMA_VERSION`; a missing
 * step refuses the event.
 */
export type UpcasterTable = { readonly [fromVersion: number]: UpcasterStep };

const unchanged: Upcaster = (data) => data;

/**
 * The upcasters of this agentlog, frozen. When an event's shape changes, `CURRENT_SCHEMA_VERSION`
 * moves on and the version it leaves gets an entry here, even when nothing needs rewriting.
 */
export const defaultUpcasters: UpcasterTable = Object.freeze({
  // 1 → 2: version 2 only added optional fields (`raw` on ToolCallCompleted, ToolCallFailed and
  // FeedbackRequested, `hook` on AgentStopped), so every version-1 event is already a
  // valid version-2 event. Version 1 recorded no raw tool results: a missing `raw` means the
  // tool's own result equalled what was recorded, which is what a version-2 event without `raw`
  // says too; a version-1 stop does not say which hook asked for it.
  1: Object.freeze({ '*': unchanged }),
  // 2 → 3: version 3 added optional fields (`finishReason`, `refusal` and `reasoning` in a
  // ModelResponded's response, `refusal` in an assistant message, `by` on AgentStopped), the
  // event StopRequested and the stop causes modelRefused, tokenLimit and contentFiltered. A
  // version-2 event is a valid version-3 event: it simply does not say why the model finished.
  2: Object.freeze({ '*': unchanged }),
  // 3 → 4: version 4 added `hook` to StopRequested and writes a StopRequested before every stop
  // the caller or a hook asked for. A version-3 event is a valid version-4 event; a version-3
  // stream simply lacks those requests, which a replay inserts (see @agentlog/replay).
  3: Object.freeze({ '*': unchanged }),
});
