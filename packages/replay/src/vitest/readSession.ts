import type { StreamEvent } from '@agentlog/core';

/**
 * The events of a session: given as events, or read from a JSONL file. A file that is not a valid
 * session is an error naming the file and the line.
 */
export async function readSession(source: string | readonly StreamEvent[]): Promise<StreamEvent[]> {
  if (typeof source !== 'string') return [...source];
  const { readJsonl } = await import('@agentlog/store/jsonl');
  try {
    return (await readJsonl(source)).events;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(`${source} is not a session agentlog can replay: ${message}`, { cause: error });
  }
}
