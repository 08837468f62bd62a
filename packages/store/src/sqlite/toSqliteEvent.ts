import { markParsedJson, type StreamEvent } from '@agentlog/core';
import { jsonProblem } from '../storeErrors.js';

/**
 * The event a row holds, checked as far as it costs nothing: JSON, an object with a string `type`,
 * `data` and a `metadata` object whose `revision` is the row's. `invalid` makes the error.
 */
export function toSqliteEvent(
  json: string,
  revision: number,
  invalid: (problem: string) => Error,
): StreamEvent {
  let event: StreamEvent;
  try {
    event = JSON.parse(json) as StreamEvent;
  } catch (error) {
    throw invalid(`its stored event: ${jsonProblem(json, error)}`);
  }
  const problem = eventProblem(event, revision);
  if (problem !== undefined) throw invalid(`its stored event ${problem}`);
  markParsedJson(event.data);
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
