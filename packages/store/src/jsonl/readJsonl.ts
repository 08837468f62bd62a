import { readFile } from 'node:fs/promises';
import { AgentlogError, type StreamEvent } from '@agentlog/core';
import { jsonProblem, storeUnavailable } from '../storeErrors.js';

/** What `readJsonl` found: the events, and the torn last line if a crash cut one short. */
export interface JsonlContents {
  readonly events: StreamEvent[];
  /** A last line that is not JSON and has no newline: a write cut short. `line` counts from 1. */
  readonly tornLine?: { readonly line: number; readonly text: string };
}

/**
 * Reads a JSON Lines file of events. A torn last line (not JSON, no trailing newline: a crash
 * mid-write) is reported in `tornLine` with the events before it; any other line that is not an
 * object with `type`, `data` and `metadata` is an `AgentlogError` (`'malformedJsonl'`) naming the
 * file and the line. A byte order mark (U+FEFF) at the start of the file is skipped, as editors on
 * Windows write one; anywhere else outside a string it makes its line malformed, and the message
 * names it. A missing file is `'jsonlNotFound'`; any other failure to read it is
 * `AgentError('storeUnavailable')` with the file system's error as `cause`.
 */
export async function readJsonl(path: string): Promise<JsonlContents> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new AgentlogError('jsonlNotFound', `${path} does not exist`, { cause: error });
    }
    throw storeUnavailable(`JSONL file ${path}`, 'reading it failed', error);
  }
  // A leading byte order mark says "UTF-8"; it is not part of the first event.
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const lines = text.split('\n');
  // Blank lines at the end are padding, not events.
  let end = lines.length;
  while (end > 0 && lines[end - 1]?.trim() === '') end -= 1;
  const endsWithNewline = end < lines.length;

  const events: StreamEvent[] = [];
  for (let index = 0; index < end; index += 1) {
    const line = lines[index] ?? '';
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      const isLast = index === end - 1 && !endsWithNewline;
      if (isLast) return { events, tornLine: { line: index + 1, text: line } };
      throw malformed(path, index + 1, jsonProblem(line, error));
    }
    const problem = eventProblem(value);
    if (problem !== undefined) throw malformed(path, index + 1, problem);
    events.push(value as StreamEvent);
  }
  return { events };
}

function eventProblem(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return 'it is not a JSON object';
  const event = value as Record<string, unknown>;
  if (typeof event['type'] !== 'string') return 'it has no string "type"';
  if (!('data' in event)) return 'it has no "data"';
  const metadata = event['metadata'];
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata))
    return 'it has no "metadata" object';
  return undefined;
}

function malformed(path: string, line: number, problem: string): AgentlogError<'malformedJsonl'> {
  return new AgentlogError('malformedJsonl', `${path}, line ${line}: ${problem}`);
}
