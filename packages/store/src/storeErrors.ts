import { AgentError, AgentlogError, isAgentlogError, type StreamEvent } from '@agentlog/core';

// The two kinds of store errors every adapter reports the same way:
// - a fault of the store itself (its driver, its connection, its disk) becomes
//   `AgentError('storeUnavailable')`, with the driver's error as `cause`;
// - stored data the store cannot hand back as events (a row that is not JSON, a missing revision)
//   becomes an error naming the store, the stream and the revision.

/**
 * A fault of the store itself as the caller sees it: `AgentError('storeUnavailable')`, whose message
 * names the store (and the stream, in `where`), what failed, and the driver's message; the driver's
 * error is the `cause`.
 */
export function storeUnavailable(where: string, what: string, cause: unknown): AgentError {
  return new AgentError('storeUnavailable', `${where}: ${what}: ${driverMessage(cause)}`, {
    cause,
  });
}

/**
 * What a caller must see of an error thrown while a store talked to its driver: agentlog's own
 * errors (`ConcurrencyError`, `InvalidEventError`, a closed store...) as they are, anything else as
 * `storeUnavailable`.
 */
export function asStoreError(error: unknown, where: string, what: string): unknown {
  return isAgentlogError(error) ? error : storeUnavailable(where, what, error);
}

/** Runs `work`, turning what its driver throws into `storeUnavailable` (see `asStoreError`). */
export async function guardStore<T>(
  where: string,
  what: string,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw asStoreError(error, where, what);
  }
}

/** The synchronous form of `guardStore`. */
export function guardStoreSync<T>(where: string, what: string, work: () => T): T {
  try {
    return work();
  } catch (error) {
    throw asStoreError(error, where, what);
  }
}

/**
 * A driver's error in one line: its message (or, for an `AggregateError` without one, the messages
 * of its errors), followed by its code when the message does not already show it.
 */
export function driverMessage(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  let message = error.message;
  if (message === '' && error instanceof AggregateError) {
    message = (error.errors as unknown[]).map(driverMessage).join('; ');
  }
  if (message === '') message = error.name;
  const code = (error as { code?: unknown }).code;
  if ((typeof code === 'string' || typeof code === 'number') && !message.includes(String(code)))
    message += ` (${String(code)})`;
  return visible(message);
}

/** `text` with the byte order mark, which no terminal shows, spelled out. */
function visible(text: string): string {
  return text.replaceAll('\uFEFF', '<U+FEFF>');
}

/** "<store>, stream X": the `where` of a fault of an operation on one stream. */
export function streamWhere(store: string, streamId: string): string {
  return `${store}, stream ${streamId}`;
}

/** "stream X of <store>": how a bad-data message starts. */
export function streamOf(streamId: string, store: string): string {
  return `stream ${streamId} of ${store}`;
}

/**
 * Why `text` is not JSON, for a message: a byte order mark outside any string is named as such
 * (`JSON.parse` would show it as an invisible character); anything else is the parser's message.
 */
export function jsonProblem(text: string, error: unknown): string {
  const bom = bomOutsideStrings(text);
  if (bom !== undefined) {
    return bom === 0
      ? 'it starts with a byte order mark (U+FEFF), which JSON does not allow'
      : `it contains a byte order mark (U+FEFF) at character ${bom + 1}, outside any string`;
  }
  return `it is not JSON (${driverMessage(error)})`;
}

/** The index of the first U+FEFF of `text` that is not inside a JSON string, if any. */
function bomOutsideStrings(text: string): number | undefined {
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text.charCodeAt(index);
    if (inString) {
      if (char === 0x5c) index += 1;
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) inString = true;
    else if (char === 0xfeff) return index;
  }
  return undefined;
}

/** A stream whose stored revisions are not contiguous: one or more events were deleted. */
export function revisionGap(
  streamId: string,
  store: string,
  missingFrom: number,
  missingTo: number,
  context: string,
): AgentlogError<'revisionGap'> {
  const missing =
    missingFrom === missingTo
      ? `revision ${missingFrom} is missing`
      : `revisions ${missingFrom} to ${missingTo} are missing`;
  return new AgentlogError('revisionGap', `${streamOf(streamId, store)}: ${missing}: ${context}`);
}

/** The revisions between `low` and `high` (both stored) are missing. */
export function revisionJump(
  streamId: string,
  store: string,
  low: number,
  high: number,
): AgentlogError<'revisionGap'> {
  return revisionGap(streamId, store, low + 1, high - 1, `the events jump from ${low} to ${high}`);
}

/** What `findRevisionGap` needs to know of the read that returned the revisions. */
export interface ReadShape {
  readonly direction?: 'forwards' | 'backwards' | undefined;
  readonly fromRevision?: number | undefined;
  readonly maxCount?: number | undefined;
}

/**
 * Checks the revisions a read returned (in the order it returned them) for a gap that the read
 * itself shows: between two of them, before the first of a forward read (which must start at
 * `fromRevision`, default 0), and below the last of a backward read that reached the start of the
 * stream (which must be 0). O(n), no query. A gap above the first event of a backward read from a
 * `fromRevision` beyond it needs a query; the store checks that itself.
 */
export function findRevisionGap(
  streamId: string,
  store: string,
  revisions: readonly number[],
  read: ReadShape,
): AgentlogError<'revisionGap'> | undefined {
  const first = revisions[0];
  if (first === undefined) return undefined;
  const backwards = read.direction === 'backwards';
  if (!backwards) {
    const from = read.fromRevision ?? 0;
    if (first > from) {
      return revisionGap(
        streamId,
        store,
        from,
        first - 1,
        from === 0
          ? `the stream starts at revision ${first}`
          : `a read from revision ${from} finds revision ${first} first`,
      );
    }
  }
  const step = backwards ? -1 : 1;
  for (let index = 1; index < revisions.length; index += 1) {
    const before = revisions[index - 1] ?? 0;
    const after = revisions[index] ?? 0;
    if (after === before + step) continue;
    const [low, high] = backwards ? [after, before] : [before, after];
    if (high <= low) {
      return new AgentlogError(
        'revisionGap',
        `${streamOf(streamId, store)}: revision ${after} follows revision ${before}: the stored revisions are out of order`,
      );
    }
    return revisionJump(streamId, store, low, high);
  }
  const last = revisions[revisions.length - 1] ?? 0;
  const reachedStart = read.maxCount === undefined || revisions.length < read.maxCount;
  if (backwards && reachedStart && last > 0) {
    return revisionGap(streamId, store, 0, last - 1, `the stream starts at revision ${last}`);
  }
  return undefined;
}

/** Throws the gap `findRevisionGap` finds in the events a read returned, if any. */
export function assertNoRevisionGap(
  streamId: string,
  store: string,
  events: readonly StreamEvent[],
  read: ReadShape,
): void {
  const gap = findRevisionGap(
    streamId,
    store,
    events.map((event) => event.metadata.revision),
    read,
  );
  if (gap !== undefined) throw gap;
}
