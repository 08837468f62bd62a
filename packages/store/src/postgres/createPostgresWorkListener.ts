import type { Client } from 'pg';
import { AgentlogError } from '@agentlog/core';
import { createWorkWaiters } from '../work/createWorkWaiters.js';
import { pg } from './pgDriver.js';

/** The waits of a PostgreSQL store's `waitForWork`; see `createPostgresWorkListener`. */
export interface PostgresWorkListener {
  /**
   * Resolves on a notification of the work channel, after `ms`, or at once when `signal` aborts.
   * The first call opens the LISTEN connection; from then on a notification that arrives while
   * nobody waits ends the next wait at once, so none is slept through between two waits.
   */
  wait(ms: number, signal?: AbortSignal): Promise<void>;
  /** Resolves the pending waits and ends the connection. */
  close(): Promise<void>;
}

/**
 * One dedicated connection that LISTENs on a store's work channel (SPEC WRK-6: an approval starts
 * its run without waiting for a poll). It connects on the first wait and stays open until
 * `close()`. When it cannot connect, or its connection is lost, a wait still ends after its `ms`
 * (workers poll meanwhile), pending waits end at once (a notification may have been missed), and
 * the next wait connects again.
 */
export function createPostgresWorkListener(
  connectionString: string,
  channel: string,
): PostgresWorkListener {
  const waiters = createWorkWaiters();
  let connection: Promise<Client> | undefined;
  let closed = false;

  const connect = (): Promise<Client> => {
    const client = new pg.Client({ connectionString });
    const current: Promise<Client> = (async () => {
      const lost = (): void => {
        if (connection !== current) return;
        connection = undefined;
        client.end().catch(() => undefined);
        waiters.wake();
      };
      client.on('error', lost);
      client.on('end', lost);
      client.on('notification', (message) => {
        if (message.channel === channel) waiters.wake();
      });
      await client.connect();
      await client.query(`LISTEN ${client.escapeIdentifier(channel)}`);
      return client;
    })();
    connection = current;
    current.catch(() => {
      if (connection === current) connection = undefined;
      client.end().catch(() => undefined);
    });
    return current;
  };

  return {
    async wait(ms, signal) {
      if (closed) throw new AgentlogError('closed', 'the PostgreSQL event store is closed');
      try {
        await (connection ?? connect());
      } catch {
        // No LISTEN: the wait ends after its ms, and the worker polls.
      }
      return waiters.wait(ms, signal);
    },
    async close() {
      closed = true;
      waiters.close();
      const pending = connection;
      connection = undefined;
      if (pending !== undefined)
        await pending.then((client) => client.end()).catch(() => undefined);
    },
  };
}
