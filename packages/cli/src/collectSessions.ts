import { readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { StreamEvent } from '@agentlog/core';
import { CliError } from './cliError.js';
import type { OpenedStore } from './openStore.js';
import { readJsonlEvents } from './readJsonlEvents.js';

/** One recorded session to replay: how to name it, the key the `--agent` module gets, its events. */
export interface Session {
  /** The file as given (a folder's files joined to it), or the stream id. */
  readonly label: string;
  /** The absolute file path, or the stream id: what `agentFor` and `streamIdFor` receive. */
  readonly key: string;
  /** Reads the events; a malformed file or an unknown stream is a `CliError`. */
  load(): Promise<StreamEvent[]>;
}

/**
 * The sessions `targets` name: `.jsonl` files, folders (their `.jsonl` files, sorted) and, when a
 * store is given, stream ids in it (every stream of it when there are no targets). A path that
 * does not exist or a folder without `.jsonl` files is a `CliError`, before anything is replayed.
 */
export async function collectSessions(
  targets: readonly string[],
  opened: OpenedStore | undefined,
  cwd: string,
): Promise<Session[]> {
  if (targets.length === 0 && opened !== undefined)
    return (await opened.store.listStreams()).map((id) => streamSession(opened, id));
  const sessions: Session[] = [];
  for (const given of targets) {
    const path = resolve(cwd, given);
    const kind = await stat(path).then(
      (stats) => (stats.isDirectory() ? 'folder' : 'file'),
      (error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? 'missing' : 'unreadable'),
    );
    if (kind === 'missing' && opened !== undefined && !/\.jsonl$/i.test(given)) {
      sessions.push(streamSession(opened, given));
    } else if (kind === 'missing') {
      throw new CliError(`no such file or folder: ${given}`);
    } else if (kind === 'unreadable') {
      throw new CliError(`cannot read ${given}`);
    } else if (kind === 'file') {
      sessions.push(fileSession(given, path));
    } else {
      const files = (await readdir(path)).filter((name) => /\.jsonl$/i.test(name)).sort();
      if (files.length === 0) throw new CliError(`no .jsonl files in ${given}`);
      for (const name of files) sessions.push(fileSession(join(given, name), join(path, name)));
    }
  }
  return sessions;
}

function fileSession(label: string, path: string): Session {
  return { label, key: path, load: () => readJsonlEvents(label, path) };
}

function streamSession(opened: OpenedStore, streamId: string): Session {
  return {
    label: streamId,
    key: streamId,
    async load() {
      const events = await opened.store.readStream(streamId);
      if (events.length === 0) throw new CliError(`no stream ${streamId} in ${opened.label}`);
      return events;
    },
  };
}
