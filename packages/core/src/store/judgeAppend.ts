import { ConcurrencyError } from '../errors/concurrencyError.js';
import type { ExpectedRevision } from '../ports/eventStore.js';
import { satisfiesExpectedRevision } from './expectedRevision.js';

/** What an append needs to know of the stream it writes to, read in the append's transaction. */
export interface AppendTarget {
  readonly streamId: string;
  /** The stream's last revision, or `'noStream'`. */
  readonly last: number | 'noStream';
  /** The revision at which the stream holds the event with this id, or `undefined`. */
  readonly revisionOf: (eventId: string) => number | undefined;
}

/** What an append must do, as `judgeAppend` judges it. */
export type AppendVerdict =
  /** The expectation does not hold: nothing is written, the adapter throws `error`. */
  | { readonly kind: 'conflict'; readonly error: ConcurrencyError }
  /** Every event offered is stored already: nothing is written, the append succeeds. */
  | { readonly kind: 'alreadyStored'; readonly nextExpectedRevision: number }
  /**
   * Write the offered events at these indexes (each id once, none the stream holds), in order,
   * at consecutive revisions from `firstRevision`.
   */
  | {
      readonly kind: 'write';
      readonly indexes: readonly number[];
      readonly firstRevision: number;
      readonly nextExpectedRevision: number;
    };

/**
 * The append protocol every store follows, as one pure function: from what the stream holds, the
 * ids of the events offered (in order) and the expected revision, it judges whether the append
 * is a conflict, a retry of events already stored, or a write of the new ones.
 *
 * - A retry (every offered event stored, in the same order at consecutive revisions) succeeds
 *   whatever it expects, as in KurrentDB: an append whose answer was lost can be sent again.
 * - Otherwise the expectation must hold, or the append is a conflict.
 * - Then only the events the stream does not hold are written, each id once: an event id already
 *   stored is never stored twice.
 */
export function judgeAppend(
  target: AppendTarget,
  offeredIds: readonly string[],
  expectedRevision: ExpectedRevision,
): AppendVerdict {
  const { streamId, last, revisionOf } = target;
  const current = last === 'noStream' ? -1 : last;
  const first = offeredIds[0];
  // Looked up once: the retry check and the decision of what to write both need it.
  const firstStored = last === 'noStream' || first === undefined ? undefined : revisionOf(first);
  if (firstStored !== undefined && isStoredRetry(revisionOf, offeredIds, firstStored))
    return { kind: 'alreadyStored', nextExpectedRevision: current };
  if (!satisfiesExpectedRevision(expectedRevision, last))
    return { kind: 'conflict', error: new ConcurrencyError(streamId, expectedRevision, last) };
  // An append offers a few events: a set of the ids seen pays off only for a long one.
  const seen = offeredIds.length > smallBatch ? new Set<string>() : undefined;
  const indexes: number[] = [];
  for (let index = 0; index < offeredIds.length; index += 1) {
    const id = offeredIds[index] as string;
    if (seen === undefined ? offeredBefore(offeredIds, id, index) : seen.has(id)) continue;
    seen?.add(id);
    const stored = index === 0 ? firstStored : last === 'noStream' ? undefined : revisionOf(id);
    if (stored === undefined) indexes.push(index);
  }
  if (indexes.length === 0) return { kind: 'alreadyStored', nextExpectedRevision: current };
  return {
    kind: 'write',
    indexes,
    firstRevision: current + 1,
    nextExpectedRevision: current + indexes.length,
  };
}

/** Up to this many ids, an id is looked for among the earlier ones instead of in a set. */
const smallBatch = 16;

/** Whether `id` is among the first `end` ids offered. */
function offeredBefore(ids: readonly string[], id: string, end: number): boolean {
  for (let index = 0; index < end; index += 1) if (ids[index] === id) return true;
  return false;
}

/**
 * True when every id is stored already, in the same order at consecutive revisions from `start`,
 * the revision of the first.
 */
function isStoredRetry(
  revisionOf: (eventId: string) => number | undefined,
  ids: readonly string[],
  start: number,
): boolean {
  for (let index = 1; index < ids.length; index += 1)
    if (revisionOf(ids[index] as string) !== start + index) return false;
  return true;
}
