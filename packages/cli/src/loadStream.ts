import { foldStream, isAgentlogError, type AgentEvent, type AgentState } from '@agentlog/core';
import type { FoldedStream } from '@agentlog/core/read-models';
import { CliError } from './cliError.js';
import type { CliIo } from './cliIo.js';
import type { OpenedStore } from './openStore.js';
import { openTarget } from './openTarget.js';

/**
 * Reads `target` (a `.jsonl` file, or a stream id in the `--store` store; optional when that
 * store is one JSONL file) and folds it. An empty or unknown stream, and events that contradict
 * each other (the `InvalidEventError` message), are a `CliError`. The store is opened read-only
 * (SPEC REV-2): inspect, show and report only read.
 */
export async function loadStream(
  target: string | undefined,
  where: string | undefined,
  io: CliIo,
): Promise<FoldedStream> {
  const { opened, streamId } = await openTarget(target, where, io);
  try {
    return { streamId, source: opened.label, ...(await readFolded(opened, streamId)) };
  } finally {
    await opened.close();
  }
}

/** Reads and folds one stream of an open store; see {@link loadStream} for the errors. */
export async function readFolded(
  opened: OpenedStore,
  streamId: string,
): Promise<{ events: AgentEvent[]; state: AgentState }> {
  const stored = await opened.store.readStream(streamId);
  if (stored.length === 0) throw new CliError(`no stream ${streamId} in ${opened.label}`);
  return invalidAsCliError(streamId, () => foldStream(stored));
}

/**
 * Runs `read`, turning an `InvalidEventError` of the fold (events that contradict each other)
 * into a `CliError` that names the stream; the error names the event and its revision. (A store's
 * own `InvalidEventError`, a stored row that is no event, already names the stream.)
 */
export async function invalidAsCliError<T>(
  streamId: string,
  read: () => T | Promise<T>,
): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (isAgentlogError(error) && error.code === 'invalidEvent')
      throw new CliError(`stream ${streamId}: ${error.message}`);
    throw error;
  }
}

/**
 * The one line a command prints for a stream it could not fold: the message of an
 * `InvalidEventError` of the fold names the stream here (the store's own names it already).
 */
export function unreadableMessage(streamId: string, error: Error): string {
  const first = error.message.split('\n')[0] ?? '';
  return isAgentlogError(error) && error.code === 'invalidEvent' && !first.includes(streamId)
    ? `stream ${streamId}: ${first}`
    : first;
}
