import { isAgentlogError, type StreamEvent } from '@agentlog/core';
import { CliError } from './cliError.js';

/**
 * Reads the events of the JSONL file at `path` (absolute), naming it `given` in errors: a missing
 * or unreadable file, and a line that is not an event (torn last lines included) are a
 * `CliError` that names the line.
 */
export async function readJsonlEvents(given: string, path: string): Promise<StreamEvent[]> {
  const { readJsonl } = await import('@agentlog/store/jsonl');
  let contents;
  try {
    contents = await readJsonl(path);
  } catch (error) {
    if (isAgentlogError(error) && error.code === 'jsonlNotFound')
      throw new CliError(`no such file: ${given}`);
    if (isAgentlogError(error) && error.code === 'malformedJsonl') {
      const message = error.message.startsWith(path)
        ? `${given}${error.message.slice(path.length)}`
        : error.message;
      throw new CliError(message);
    }
    const code = (error as NodeJS.ErrnoException).code;
    throw new CliError(`cannot read ${given}: ${code ?? (error as Error).message}`);
  }
  const { events, tornLine } = contents;
  if (tornLine !== undefined) {
    throw new CliError(`${given}, line ${tornLine.line}: it is not JSON (the line is cut short)`);
  }
  return events;
}
