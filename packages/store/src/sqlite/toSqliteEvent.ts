import { type StreamEvent } from '@agentlog/core';
import { jsonProblem } from '../storeErrors.js';

/**
 * The event a row holds, checked as far as it costs nothing: JSON, an object with a string `type`,
 * `data` and a `metadata` object whose `revision` is the row's. Otherwise what is wrong with it,
 * as text ("its stored event …"), for the caller to put in its error.
 */
export function toSqliteEvent(json: string, revision: number): StreamEvent | string {
  let event: StreamEvent;
  try {
    event = JSON.parse(json) as StreamEvent;
  } catch (error) {
    return `its stored event: ${jsonProblem(json, error)}`;
  }
  const problem = eventProblem(event, revision);
  if (problem !== undefined) return `its stored event ${problem}`;
  // Not marked as parsed JSON (`markParsedJson`): a WeakSet entry per event cost a build on 1M
  // events more than a fork saves by not walking the data it appends (docs/performance.md).
  return event;
}

function eventProblem(value: unknown, revision: number): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return 'is not a JSON object';
  const event = value as Partial<Record<keyof StreamEvent, unknown>>;
  if (typeof event.type !== 'string') return 'has no string "type"';
  if (!('data' in event)) return 'has no "data"';
  const metadata = event.metadata as { revision?: unknown } | null | undefined;
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata))
    return 'has no "metadata" object';
  if (metadata.revision !== revision)
    return `says revision ${String(metadata.revision)}, but its row is at revision ${revision}`;
  return undefined;
}
