import type { Client, Notification } from 'pg';
import { pg } from './pgDriver.js';
import { AgentlogError } from '@agentlog/core';

/** What a subscription gives the listener: what to call on an append, and on a lost connection. */
interface Watcher {
  readonly streamId: string;
  readonly onAppend: () => void;
  readonly onError: (error: unknown) => void;
}

/**
 * One dedicated connection that LISTENs on a store's channel and tells the subscriptions of a
 * stream when an append to it committed. It connects when the first subscription starts and
 * disconnects when the last one stops, so an idle store keeps no connection open.
 */
export interface PostgresListener {
  /**
   * Calls `onAppend` after every committed append to `streamId`, from the moment the returned
   * promise fulfils, until the function it fulfils with is called. `onError` is called (once) if
   * the connection is lost; no `onAppend` follows.
   */
  watch(
    streamId: string,
    onAppend: () => void,
    onError: (error: unknown) => void,
  ): Promise<() => void>;
  /** The number of watches not yet stopped (for tests). */
  readonly size: number;
  /** Fails the remaining watches with `AgentlogError('closed')` and disconnects. */
  close(): Promise<void>;
}

export function createPostgresListener(
  connectionString: string,
  channel: string,
): PostgresListener {
  const watchers = new Map<string, Set<Watcher>>();
  let size = 0;
  let connection: Promise<Client> | undefined;
  const ending = new Set<Promise<void>>();
  let closed = false;

  const end = (pending: Promise<Client>): void => {
    const done = pending
      .then((client) => client.end())
      .catch(() => undefined)
      .finally(() => ending.delete(done));
    ending.add(done);
  };

  const failAll = (error: unknown): void => {
    const failed = [...watchers.values()].flatMap((set) => [...set]);
    watchers.clear();
    size = 0;
    for (const watcher of failed) watcher.onError(error);
  };

  const connect = async (): Promise<Client> => {
    const client = new pg.Client({ connectionString });
    let lost = false;
    const onLost = (error: unknown): void => {
      if (lost) return;
      lost = true;
      // A broken connection: drop it, and fail its watchers so none waits forever.
      if (connection === current) connection = undefined;
      end(current);
      failAll(error);
    };
    const current: Promise<Client> = (async () => {
      // Attached before connecting and kept until the client is gone: a connection error is an
      // 'error' event, which would crash the process without a listener.
      client.on('error', onLost);
      client.on('end', () => {
        // The server closed it without an error (the subscription makes it storeUnavailable).
        if (connection === current) onLost(new Error('the PostgreSQL LISTEN connection ended'));
      });
      client.on('notification', (message: Notification) => {
        if (message.channel !== channel || message.payload === undefined) return;
        const set = watchers.get(message.payload);
        if (set !== undefined) for (const watcher of [...set]) watcher.onAppend();
      });
      await client.connect();
      await client.query(`LISTEN ${client.escapeIdentifier(channel)}`);
      return client;
    })();
    connection = current;
    try {
      return await current;
    } catch (error) {
      if (connection === current) connection = undefined;
      await client.end().catch(() => undefined);
      throw error;
    }
  };

  const stop = (watcher: Watcher): void => {
    const set = watchers.get(watcher.streamId);
    if (set === undefined || !set.delete(watcher)) return;
    if (set.size === 0) watchers.delete(watcher.streamId);
    size -= 1;
    if (size === 0 && connection !== undefined) {
      const pending = connection;
      connection = undefined;
      end(pending);
    }
  };

  return {
    async watch(streamId, onAppend, onError) {
      if (closed) throw new AgentlogError('closed', 'the PostgreSQL event store is closed');
      const watcher: Watcher = { streamId, onAppend, onError };
      let set = watchers.get(streamId);
      if (set === undefined) {
        set = new Set();
        watchers.set(streamId, set);
      }
      set.add(watcher);
      size += 1;
      try {
        await (connection ?? connect());
      } catch (error) {
        stop(watcher);
        throw error;
      }
      return () => stop(watcher);
    },
    get size() {
      return size;
    },
    async close() {
      closed = true;
      failAll(new AgentlogError('closed', 'the PostgreSQL event store was closed'));
      if (connection !== undefined) {
        end(connection);
        connection = undefined;
      }
      await Promise.all([...ending]);
    },
  };
}
