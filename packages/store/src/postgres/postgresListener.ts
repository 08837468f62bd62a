import type { Client, Notification, Pool } from 'pg';
import { pg } from './pgDriver.js';
import { AgentlogError } from '@agentlog/core';
import type { PostgresNames } from './postgresSchema.js';
import { subscriberEntries, type SubscriberEntries } from './postgresSubscribers.js';

/** What a subscription gives the listener: what to call on an append, and on a lost connection. */
interface Watcher {
  readonly streamId: string;
  readonly onAppend: () => void;
  readonly onError: (error: unknown) => void;
}

/**
 * One dedicated connection that LISTENs on a store's channel and tells the subscriptions of a
 * stream when an append to it committed. It connects when the first subscription starts and
 * disconnects when the last one stops, so an idle store keeps no connection open. It lists each
 * stream it follows in the schema's `subscribers` table (appends notify only those) before a
 * watch starts, and drops the entry when the stream's last watch stops.
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
  names: PostgresNames,
  pool: Pool,
): PostgresListener {
  const { channel } = names;
  const watchers = new Map<string, Set<Watcher>>();
  /** The entries in `subscribers` this connection made (or is making), by stream. */
  const registered = new Map<string, Promise<void>>();
  /** The entries of each connection, by client. */
  const entriesOf = new WeakMap<Client, SubscriberEntries>();
  let size = 0;
  let connection: Promise<Client> | undefined;
  const ending = new Set<Promise<void>>();
  let closed = false;

  const end = (pending: Promise<Client>): void => {
    registered.clear();
    const done = pending
      .then(async (client) => {
        // Best effort: an entry left behind only costs notifications, and the next
        // registration of the stream drops the entries of connections that are gone.
        await entriesOf
          .get(client)
          ?.removeAll()
          .catch(() => undefined);
        await client.end();
      })
      .catch(() => undefined)
      .finally(() => ending.delete(done));
    ending.add(done);
  };

  const failAll = (error: unknown): void => {
    const failed = [...watchers.values()].flatMap((set) => [...set]);
    watchers.clear();
    registered.clear();
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
      const pid = (client as { processID?: unknown }).processID;
      if (typeof pid !== 'number') throw new Error('the LISTEN connection has no backend pid');
      entriesOf.set(client, subscriberEntries(pool, names, pid));
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
    size -= 1;
    if (set.size === 0) {
      watchers.delete(watcher.streamId);
      registered.delete(watcher.streamId);
      // Queued on the connection after its registration, so they run in that order.
      if (size > 0 && connection !== undefined) {
        void connection
          .then((client) => entriesOf.get(client)?.remove(watcher.streamId))
          .catch(() => undefined);
      }
    }
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
        const client = await (connection ?? connect());
        let registering = registered.get(streamId);
        if (registering === undefined) {
          registering =
            entriesOf.get(client)?.add(streamId) ?? Promise.reject(new Error('not connected'));
          registered.set(streamId, registering);
        }
        await registering;
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
