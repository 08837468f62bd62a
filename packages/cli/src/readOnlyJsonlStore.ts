import { basename } from 'node:path';
import type { EventStore, ReadStreamOptions, StreamEvent } from '@agentlog/core';
import { CliError } from './cliError.js';

/** The stream id a JSONL file stands for: its file name without `.jsonl`. */
export function jsonlStreamId(path: string): string {
  return basename(path).replace(/\.jsonl$/i, '');
}

/**
 * An `EventStore` over the events of one JSONL file, seen as the single stream
 * {@link jsonlStreamId}: reads work, every write and subscription throws a `CliError`.
 */
export function readOnlyJsonlStore(path: string, events: readonly StreamEvent[]): EventStore {
  const streamId = jsonlStreamId(path);
  const readOnly = (what: string) =>
    new CliError(`${path} is a JSONL file, which agentlog only reads: cannot ${what}`);
  return {
    appendToStream: () => Promise.reject(readOnly('append to it')),
    readStream: (id: string, options: ReadStreamOptions = {}) =>
      Promise.resolve(id === streamId ? select(events, options) : []),
    subscribeToStream: () => {
      throw readOnly('subscribe to it');
    },
    listStreams: () => Promise.resolve([streamId]),
  };
}

function select(events: readonly StreamEvent[], options: ReadStreamOptions): StreamEvent[] {
  const max = options.maxCount ?? Number.POSITIVE_INFINITY;
  if (options.direction === 'backwards') {
    const from = options.fromRevision ?? Number.MAX_SAFE_INTEGER;
    return events
      .filter((event) => event.metadata.revision <= from)
      .reverse()
      .slice(0, max);
  }
  const from = options.fromRevision ?? 0;
  // Revisions count from 0 without gaps in a file read back: a page is a slice, not a scan.
  if (events[from]?.metadata.revision === from) {
    return events.slice(from, max === Number.POSITIVE_INFINITY ? undefined : from + max);
  }
  return events.filter((event) => event.metadata.revision >= from).slice(0, max);
}
