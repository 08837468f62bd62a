import { AgentlogError } from '../errors/agentlogError.js';
import { InvalidEventError } from '../errors/invalidEventError.js';
import type { NewStreamEvent } from '../ports/eventStore.js';
import { findNonJson } from '../support/json.js';
import { isCheckedBatch } from './checkedBatch.js';

/** The longest stream id a store accepts, in characters (code points). */
export const maxStreamIdLength = 200;

/**
 * Throws an `AgentlogError` with code `'invalidStreamId'` unless `streamId` is a non-empty string
 * of at most 200 characters without `/`, `\`, C0 or C1 control characters, bidi controls,
 * zero-width or invisible formatting characters (SPEC REV-1) or unpaired surrogates. Every store
 * adapter applies the same rule, so a stream id that works in memory works in a database too.
 */
export function assertValidStreamId(streamId: unknown): asserts streamId is string {
  const problem = streamIdProblem(streamId);
  if (problem !== undefined) {
    const shown =
      typeof streamId === 'string' ? JSON.stringify(streamId.slice(0, 60)) : String(streamId);
    throw new AgentlogError('invalidStreamId', `invalid stream id ${shown}: ${problem}`);
  }
}

const validStreamIds = new Set<string>();

function streamIdProblem(streamId: unknown): string | undefined {
  if (typeof streamId !== 'string') return `it must be a string, not ${typeof streamId}`;
  // Every append and read checks its id: an id once found valid is not walked again.
  if (validStreamIds.has(streamId)) return undefined;
  if (streamId === '') return 'it is empty';
  const length = [...streamId].length;
  if (length > maxStreamIdLength)
    return `it has ${length} characters, more than ${maxStreamIdLength}`;
  for (const [index, char] of [...streamId].entries()) {
    if (char === '/' || char === '\\') return `it contains "${char}" at character ${index}`;
    const code = char.codePointAt(0) ?? 0;
    const kind = hiddenKind(code);
    if (kind !== undefined) {
      return `it contains the ${kind} U+${code.toString(16).toUpperCase().padStart(4, '0')} at character ${index}`;
    }
    // A lone surrogate has no UTF-8 form: databases would store U+FFFD, merging distinct ids.
    if (code >= 0xd800 && code <= 0xdfff) {
      return `it contains the unpaired surrogate U+${code.toString(16).toUpperCase()} at character ${index}`;
    }
  }
  // Bounded, so a process that touches millions of streams does not keep them all.
  if (validStreamIds.size >= 10_000) validStreamIds.clear();
  validStreamIds.add(streamId);
  return undefined;
}

/**
 * What a character a stream id may not hold is, or `undefined` for an allowed one: a stream id is
 * shown to people, so it must read as what it is (SPEC REV-1).
 */
function hiddenKind(code: number): string | undefined {
  if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return 'control character';
  if (
    code === 0x061c ||
    code === 0x200e ||
    code === 0x200f ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069)
  )
    return 'bidi control';
  if (
    code === 0x00ad ||
    code === 0x180e ||
    (code >= 0x200b && code <= 0x200d) ||
    (code >= 0x2060 && code <= 0x2064) ||
    code === 0xfeff
  )
    return 'zero-width character';
  if (code === 0x2028 || code === 0x2029) return 'line separator';
  return undefined;
}

/**
 * Throws an `InvalidEventError` (code `'invalidEvent'`) naming the event index and the problem
 * unless every event has a non-empty string `type`, an `eventId`, and plain JSON data and metadata.
 * Store adapters call it before writing anything, so a bad batch stores nothing. With
 * `checkData: false` the data is left to the caller, for a store that copies it anyway.
 */
export function assertValidNewEvents(
  events: readonly NewStreamEvent[],
  options: { readonly checkData?: boolean } = {},
): void {
  if (!Array.isArray(events)) {
    throw new InvalidEventError('(none)', undefined, 'the events of an append must be an array');
  }
  // A batch the writer checked and froze is plain JSON throughout: its shape is still checked.
  const walk = !isCheckedBatch(events);
  for (let index = 0; index < events.length; index += 1) {
    const event: unknown = events[index];
    const problem = newEventProblem(event, index, walk && options.checkData !== false, walk);
    if (problem !== undefined) {
      const type = (event as { type?: unknown } | null)?.type;
      const name = typeof type === 'string' && type !== '' ? type : '(no type)';
      throw new InvalidEventError(name, undefined, problem);
    }
  }
}

/** Why the event at `index` cannot be stored, or `undefined`; its path is named only then. */
function newEventProblem(
  event: unknown,
  index: number,
  checkData: boolean,
  checkMetadata: boolean,
): string | undefined {
  if (typeof event !== 'object' || event === null || Array.isArray(event))
    return `${pathOf(index)} is not an object`;
  const { type, data, metadata } = event as { type?: unknown; data?: unknown; metadata?: unknown };
  if (typeof type !== 'string' || type === '')
    return `${pathOf(index)}.type must be a non-empty string`;
  const nonJsonData = checkData ? nonJson(data, `${pathOf(index)}.data`) : undefined;
  if (nonJsonData !== undefined) return `${nonJsonData} is not plain JSON`;
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) {
    return `${pathOf(index)}.metadata is not an object`;
  }
  const { eventId, at, schemaVersion } = metadata as {
    eventId?: unknown;
    at?: unknown;
    schemaVersion?: unknown;
  };
  if (typeof eventId !== 'string' || eventId === '')
    return `${pathOf(index)}.metadata.eventId must be a non-empty string`;
  if (typeof at !== 'string') return `${pathOf(index)}.metadata.at must be a string`;
  if (typeof schemaVersion !== 'number')
    return `${pathOf(index)}.metadata.schemaVersion must be a number`;
  const nonJsonMetadata = checkMetadata
    ? nonJson(metadata, `${pathOf(index)}.metadata`)
    : undefined;
  if (nonJsonMetadata !== undefined) return `${nonJsonMetadata} is not plain JSON`;
  return undefined;
}

function nonJson(value: unknown, path: string): string | undefined {
  try {
    return findNonJson(value, path);
  } catch {
    // A cyclic value recurses until the stack runs out.
    return `${path} (cyclic or too deeply nested)`;
  }
}

/** How a problem names the event at `index` of an append. */
function pathOf(index: number): string {
  return `events[${index}]`;
}
