import type { AppendOptions, AppendResult, ExpectedRevision, NewStreamEvent } from '@agentlog/core';
import { judgeAppend, judgeFence, needsWorkNow } from '@agentlog/core/store-kit';
import {
  fencedEntryOf,
  type AppendCall,
  type AppendRead,
  type SerializedEvent,
} from './postgresAppendCall.js';

/** One append of a PostgreSQL store, validated and serialised, as its tries take it. */
export interface PostgresAppend {
  readonly streamId: string;
  readonly events: readonly SerializedEvent[];
  readonly expectedRevision: ExpectedRevision;
  readonly options: AppendOptions;
  /** Whether it locks the stream's run first (`locksRun`). */
  readonly locks: boolean;
  /** The events as offered, for `judgeFence`. */
  readonly judged: readonly NewStreamEvent[];
  /** The revision its first event gets if the stream is as expected, or null when unknown. */
  readonly predicted: number | null;
}

/** The call of the append function for `append`: check, and write what was predicted. */
export function checkingCall(append: PostgresAppend): AppendCall {
  const { options } = append;
  const { work } = options;
  return {
    streamId: append.streamId,
    mode: 'check',
    lock: append.locks,
    first: append.predicted,
    fence: options.fence,
    start: options.claim !== undefined || append.judged.some((e) => e.type === 'RunStarted'),
    events: append.events,
    work,
    claim: options.claim !== undefined,
    notifyWork: work !== undefined && needsWorkNow(work.status),
  };
}

/** What the shared rules make of what the append function read. */
export type ReadVerdict =
  /** Nothing (more) to write: the append's result. */
  | { readonly kind: 'done'; readonly result: AppendResult }
  /** Write these events from this revision (`claims`: the append claims the run). */
  | {
      readonly kind: 'write';
      readonly events: readonly SerializedEvent[];
      readonly firstRevision: number;
      readonly claims: boolean;
      readonly result: AppendResult;
    };

/**
 * Judges with `judgeAppend` and `judgeFence` what the append function read, as every store
 * does, in the in-memory store's order: a stored retry returns; the fence is judged before a
 * revision conflict is thrown (a stale holder learns it lost the run). Throws the conflict or the
 * refusal; otherwise says what to write, if anything.
 */
export function judgeRead(append: PostgresAppend, read: AppendRead): ReadVerdict {
  const { streamId, events } = append;
  const last = read.o_last === null ? 'noStream' : Number(read.o_last);
  const known = new Map<string, number>();
  (read.o_known_ids ?? []).forEach((id, index) =>
    known.set(id, Number(read.o_known_revisions?.[index])),
  );
  const decision = judgeAppend(
    { streamId, last, revisionOf: (id) => known.get(id) },
    events.map((event) => event.eventId),
    append.expectedRevision,
  );
  if (decision.kind === 'alreadyStored')
    return { kind: 'done', result: { nextExpectedRevision: decision.nextExpectedRevision } };
  const now = read.o_now ?? Number.NaN;
  const claims = judgeFence(streamId, fencedEntryOf(read), append.judged, append.options, now);
  if (decision.kind === 'conflict') throw decision.error;
  return {
    kind: 'write',
    events: decision.indexes.map((index) => events[index] as SerializedEvent),
    firstRevision: decision.firstRevision,
    claims,
    result: { nextExpectedRevision: decision.nextExpectedRevision },
  };
}
