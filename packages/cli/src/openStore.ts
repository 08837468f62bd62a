import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { EventStore } from '@agentlog/core';
import { CliError } from './cliError.js';
import type { CliIo } from './cliIo.js';
import { readJsonlEvents } from './readJsonlEvents.js';
import { jsonlStreamId, readOnlyJsonlStore } from './readOnlyJsonlStore.js';
import { storeKind, type StoreKind } from './storeKind.js';

/** A store the command opened, with how to name it in messages and how to release it. */
export interface OpenedStore {
  readonly store: EventStore;
  readonly kind: StoreKind;
  /** The SQLite path or JSONL file as given, or the database URL without its password. */
  readonly label: string;
  /** A JSONL file holds one stream: its id. */
  readonly soleStream?: string;
  close(): Promise<void>;
}

/** How a command opens its store. */
export interface OpenStoreOptions {
  /**
   * Read-only (SPEC REV-2), for the commands that only read: a SQLite file is opened read-only,
   * writing nothing in it or beside it and never waiting for another process's write lock.
   * PostgreSQL and KurrentDB stores are opened as usual; the reading commands only read them.
   */
  readonly readonly?: boolean;
}

/**
 * Opens the store that `--store` names (see {@link storeKind}): a `postgres://` or
 * `postgresql://` URL, a `kurrentdb://` URL, a `.jsonl` file (one read-only stream), or else a
 * SQLite file, by default `.agentlog/agentlog.db` under `io.cwd`. A missing SQLite file is
 * refused, never created; with `readonly`, a SQLite file is only read (see
 * {@link OpenStoreOptions}). Opening a database connects lazily: an unreachable server fails the
 * first read with the adapter's `AgentError('storeUnavailable')`, which names the store.
 */
export async function openStore(
  where: string | undefined,
  io: CliIo,
  options: OpenStoreOptions = {},
): Promise<OpenedStore> {
  // Each adapter is loaded on demand, only the one the store needs: their drivers take a while
  // to load, and a JSONL file or --help needs none of them.
  const given = where ?? '.agentlog/agentlog.db';
  const kind = storeKind(given);
  if (kind === 'postgres') {
    const { createPostgresEventStore } = await import('@agentlog/store/postgres');
    const store = createPostgresEventStore({ connectionString: given });
    return { store, kind, label: withoutPassword(given), close: () => store.close() };
  }
  if (kind === 'kurrentdb') {
    const { createKurrentEventStore } = await import('@agentlog/store/kurrentdb');
    const store = createKurrentEventStore({ connectionString: given });
    return { store, kind, label: withoutPassword(given), close: () => store.close() };
  }
  const path = resolve(io.cwd, given);
  if (kind === 'jsonl') return openJsonl(given, path);
  if (!existsSync(path)) throw new CliError(`no agentlog database at ${given}`);
  const { createSqliteEventStore } = await import('@agentlog/store/sqlite');
  const store = createSqliteEventStore({ path, readonly: options.readonly === true });
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

/** `url` with its password (in the user info or a `password` parameter) replaced by `***`. */
export function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    if (parsed.searchParams.has('password')) parsed.searchParams.set('password', '***');
    return parsed.toString().replace('password=%2A%2A%2A', 'password=***');
  } catch {
    // Not a WHATWG URL (several KurrentDB hosts, say): mask the user info's password by hand.
    return url
      .replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@')
      .replace(/password=[^&]*/gi, 'password=***');
  }
}
