import { resolve } from 'node:path';
import { foldStream, isAgentlogError, type AgentEvent, type AgentState } from '@agentlog/core';
import { CliError } from './cliError.js';
import type { CliIo } from './cliIo.js';
import { openJsonl, openStore, type OpenedStore } from './openStore.js';

/** A stream read and folded for display: its id, where it came from, its events and state. */
export interface LoadedStream {
  readonly streamId: string;
  /** The JSONL file, or the store the stream was read from. */
  readonly source: string;
  readonly events: AgentEvent[];
  readonly state: AgentState;
}

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
): Promise<LoadedStream> {
  const opened =
    target !== undefined && /\.jsonl$/i.test(target)
      ? await openJsonl(target, resolve(io.cwd, target))
      : await openStore(where, io, { readonly: true });
  try {
    const streamId = target === undefined || opened.kind === 'jsonl' ? opened.soleStream : target;
    if (streamId === undefined) throw new CliError('name the stream (or a .jsonl file) to read');
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
  try {
    return foldStream(stored);
  } catch (error) {
    if (isAgentlogError(error) && error.code === 'invalidEvent')
      throw new CliError(`stream ${streamId}: ${error.message}`);
    throw error;
  }
}
