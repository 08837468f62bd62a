import type { StreamEvent } from '@agentlog/core';

/**
 * The events of a session: given as events, or read from a JSONL file. A file that is not a valid
 * session, a last line cut short included, is an error naming the file and the line.
 */
export async function readSession(source: string | readonly StreamEvent[]): Promise<StreamEvent[]> {
  if (typeof source !== 'string') return [...source];
  const { readJsonl } = await import('@agentlog/store/jsonl');
  const notASession = (why: string, cause?: unknown) =>
    new Error(`${source} is not a session agentlog can replay: ${why}`, { cause });
  let contents;
  try {
    contents = await readJsonl(source);
  } catch (error) {
    throw notASession(error instanceof Error ? error.message : String(error), error);
  }
  if (contents.tornLine !== undefined)
    throw notASession(`line ${contents.tornLine.line} is cut short`);
  return contents.events;
}
