import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { EventStore } from '@agentlog/core';
import { CliError } from './cliError.js';
import type { CliIo } from './cliIo.js';
import { readJsonlEvents } from './readJsonlEvents.js';
import { jsonlStreamId, readOnlyJsonlStore } from './readOnlyJsonlStore.js';

/** A store the command opened, with how to name it in messages and how to release it. */
export interface OpenedStore {
  readonly store: EventStore;
  readonly kind: 'sqlite' | 'postgres' | 'jsonl';
  /** The SQLite path or JSONL file as given, or the PostgreSQL URL without its password. */
  readonly label: string;
  /** A JSONL file holds one stream: its id. */
  readonly soleStream?: string;
  close(): Promise<void>;
}

/** True for the `--store` values that name a PostgreSQL database. */
export function isPostgresUrl(where: string): boolean {
  return /^postgres(ql)?:\/\//i.test(where);
}

/**
 * Opens the store that `--store` names: a `postgres://` or
 * `postgresql://` URL, a `.jsonl` file (one read-only stream), or else a SQLite file, by default
 * `.agentlog/agentlog.db` under `io.cwd`. A missing SQLite file is refused, never created.
 */
export async function openStore(where: string | undefined, io: CliIo): Promise<OpenedStore> {
  // Each adapter is loaded on demand, only the one the store needs: their drivers take a while
  // to load, and a JSONL file or --help needs none of them.
  const given = where ?? '.agentlog/agentlog.db';
  if (isPostgresUrl(given)) {
    const { createPostgresEventStore } = await import('@agentlog/store/postgres');
    const store = createPostgresEventStore({ connectionString: given });
    return { store, kind: 'postgres', label: withoutPassword(given), close: () => store.close() };
  }
  const path = resolve(io.cwd, given);
  if (/\.jsonl$/i.test(given)) return openJsonl(given, path);
  if (!existsSync(path)) throw new CliError(`no agentlog database at ${given}`);
  const { createSqliteEventStore } = await import('@agentlog/store/sqlite');
  const store = createSqliteEventStore({ path });
  return {
    store,
    kind: 'sqlite',
    label: given,
    close: () => {
      store.close();
      return Promise.resolve();
    },
  };
}

/** Reads a JSONL file (`given`, at absolute `path`) as a store holding its one stream. */
export async function openJsonl(given: string, path: string): Promise<OpenedStore> {
  const events = await readJsonlEvents(given, path);
  return {
    store: readOnlyJsonlStore(given, events),
    kind: 'jsonl',
    label: given,
    soleStream: jsonlStreamId(given),
    close: () => Promise.resolve(),
  };
}

function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'the PostgreSQL database';
  }
}
