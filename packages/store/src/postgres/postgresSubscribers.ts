import type { Pool } from 'pg';
import { subscriberLockClass } from './postgresAppendFunction.js';
import type { PostgresNames } from './postgresSchema.js';

/** The entries of one LISTEN connection in the schema's `subscribers` table. */
export interface SubscriberEntries {
  /** Lists the stream; resolves once committed. */
  add(streamId: string): Promise<void>;
  /** Drops the stream's entry (its last watch stopped). */
  remove(streamId: string): Promise<void>;
  /** Drops every entry, before the connection ends. */
  removeAll(): Promise<void>;
}

/**
 * The entries of the LISTEN connection whose backend pid is `pid`, written through the store's
 * pool (the LISTEN connection itself runs nothing but its LISTEN). Adding a stream is one
 * statement, its own transaction, that first takes the stream's subscriber lock exclusive: that
 * waits for the appends in flight (they hold it shared, see `appendFunctionSql`) and holds off new
 * ones until the entry is committed, so whatever the subscription reads after it, an append it
 * does not see notifies. Entries of connections that are gone (a process that died) are dropped
 * on the way. The operations of one stream run in the order they were asked for.
 */
export function subscriberEntries(
  pool: Pool,
  names: PostgresNames,
  pid: number,
): SubscriberEntries {
  const queues = new Map<string, Promise<void>>();
  const inTurn = (streamId: string, run: () => Promise<unknown>): Promise<void> => {
    const done = (queues.get(streamId) ?? Promise.resolve())
      .catch(() => undefined)
      .then(run)
      .then(() => undefined);
    queues.set(streamId, done);
    void done
      .catch(() => undefined)
      .finally(() => {
        if (queues.get(streamId) === done) queues.delete(streamId);
      });
    return done;
  };
  return {
    add: (streamId) =>
      inTurn(streamId, () =>
        pool.query(
          `WITH locked AS (SELECT pg_advisory_xact_lock($2, hashtext($1))),
           gone AS (
             DELETE FROM ${names.subscribers} AS s WHERE s.stream_id = $1
               AND NOT EXISTS (SELECT 1 FROM pg_stat_activity AS a WHERE a.pid = s.pid)
           )
           INSERT INTO ${names.subscribers} (stream_id, pid)
           SELECT $1, $3 FROM locked
           ON CONFLICT DO NOTHING`,
          [streamId, subscriberLockClass, pid],
        ),
      ),
    remove: (streamId) =>
      inTurn(streamId, () =>
        pool.query(`DELETE FROM ${names.subscribers} WHERE stream_id = $1 AND pid = $2`, [
          streamId,
          pid,
        ]),
      ),
    removeAll: async () => {
      await Promise.all([...queues.values()].map((queued) => queued.catch(() => undefined)));
      await pool.query(`DELETE FROM ${names.subscribers} WHERE pid = $1`, [pid]);
    },
  };
}
