import { pg } from './pgDriver.js';
import { AgentlogError, type EventStore, type WorkIndex } from '@agentlog/core';
import { createPostgresWorkIndex } from './createPostgresWorkIndex.js';
import { createPostgresWorkListener } from './createPostgresWorkListener.js';
import { postgresAppend } from './postgresAppend.js';
import { createPostgresListener, type PostgresListener } from './postgresListener.js';
import { postgresList, postgresRead } from './postgresRead.js';
import { ensurePostgresSchema, postgresNames } from './postgresSchema.js';
import {
  postgresLabel,
  type PostgresDurability,
  type PostgresStoreContext,
} from './postgresStoreContext.js';

export type { PostgresDurability } from './postgresStoreContext.js';

const durabilities: readonly PostgresDurability[] = ['full', 'sideEffects'];
import { guardStore } from '../storeErrors.js';
import { postgresSubscribe } from './postgresSubscribe.js';

/** Options of `createPostgresEventStore`. */
export interface PostgresEventStoreOptions {
  /** A libpq connection string, e.g. `postgres://user:password@host:5432/database`. */
  readonly connectionString: string;
  /**
   * The PostgreSQL schema holding the store's tables (default `agentlog`): lower-case letters,
   * digits and `_`, at most 48 characters. Stores on different schemas do not see each other.
   */
  readonly schema?: string;
  /**
   * What an append survives once it returns, as in the SQLite store (default `'sideEffects'`):
   * - `'full'`: every append waits for its WAL flush (the server's `synchronous_commit`, `on` by
   *   default) and survives a crash of the server or its machine.
   * - `'sideEffects'`: only the appends marked `durable` (they precede a tool that is not
   *   idempotent, or record a person's decision) wait for the flush; the others commit with
   *   `synchronous_commit = off`, so a crash of the server may lose the last of them (never one
   *   before a durable append). A crash of the client loses nothing that was committed.
   */
  readonly durability?: PostgresDurability;
}

/** A PostgreSQL event store; `close()` ends its connections. */
export interface PostgresEventStore extends EventStore {
  /** The work index (SPEC WRK-6), on the server's clock (SPEC WRK-4). */
  readonly work: WorkIndex;
  /**
   * Stops the live subscriptions (with an `AgentlogError('closed')`) and ends the pool; calling it
   * again does nothing more.
   */
  close(): Promise<void>;
}

/**
 * Creates an event store on PostgreSQL (a `pg.Pool`). It follows the `EventStore` contract exactly
 * like the in-memory store: revisions from 0, expected revisions (SPEC RES-3), idempotence by
 * `eventId` (a retried append succeeds whatever it expects), catch-up subscriptions.
 *
 * - It creates its schema, tables and indexes on first use (`CREATE ... IF NOT EXISTS` under an
 *   advisory lock, so processes starting together do not clash), and refuses with
 *   `AgentlogError('newerSchema')` a schema written by a newer version of this package.
 * - Event data and metadata are kept in `json` columns (not `jsonb`, which reorders keys), so an
 *   event reads back exactly as it was written.
 * - An append is one transaction. Concurrent appends to one stream collide on the unique
 *   `(stream_id, revision)` index; the loser re-evaluates its expectation against the new state,
 *   so a stale expected revision fails with `ConcurrencyError` (with the actual revision) and
 *   `'any'` simply lands after the winner. Nothing of a failed append is stored.
 * - Subscriptions read what is stored, then follow appends through LISTEN/NOTIFY on one dedicated
 *   connection per store (opened while at least one subscription is live), re-reading from the last
 *   delivered revision on each notification: no gap, no duplicate.
 * - It keeps the work index (`work`, SPEC WRK-6) in the append's transaction; leases are judged on
 *   the server's clock (SPEC WRK-4). A claim or a fencing token (SPEC WRK-8) is judged by
 *   `judgeFence` on the stream's work row, locked for the append's transaction, so two claims of
 *   one run, or a claim and a late append of the run it replaces, never both pass. `waitForWork`
 *   LISTENs for appends that make a stream need work, on one more dedicated connection, opened by
 *   the first wait.
 * - Needs a UTF8 database. Besides the shared stream id and event rules, it refuses what
 *   PostgreSQL `text` cannot hold exactly: U+0000 and unpaired surrogates in stream ids, event
 *   types and event ids (data and metadata may contain anything JSON can).
 * - A fault of the server or of a connection (a restart, a refused or lost connection) rejects
 *   the operation with `AgentError('storeUnavailable')` naming the schema, the server and the
 *   stream, with the driver's error as `cause`; it is never an unhandled `'error'` event, and the
 *   pool connects again on the next operation. A stored row that is not an event, or a revision
 *   missing among the ones read, is an error naming the schema, the stream and the revision.
 */
export function createPostgresEventStore(options: PostgresEventStoreOptions): PostgresEventStore {
  const names = postgresNames(options.schema);
  const durability = options.durability ?? 'sideEffects';
  if (!durabilities.includes(durability)) {
    throw new AgentlogError(
      'invalidConfiguration',
      `PostgreSQL durability must be one of ${durabilities.join(', ')}, not ${String(durability)}`,
    );
  }
  // Pipelined clients send a query without waiting for the answer to the one before: an append's
  // BEGIN, statement and COMMIT leave together (inPipelinedTransaction). Queries awaited one by
  // one go as before.
  const pool = new pg.Pool({ connectionString: options.connectionString, pipeline: true });
  // An idle client whose connection broke (a server restart) is dropped by the pool, which then
  // emits 'error': without a listener that would crash the process. The next query opens a new
  // connection. A client also keeps a listener of its own for its whole life, so that no
  // connection error is ever an unhandled 'error' event; while a client is checked out, the
  // operation using it records the error (withPooledClient) and the query in flight rejects.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
  });
  const listener = createPostgresListener(options.connectionString, names, pool);
  const label = postgresLabel(options.connectionString, names.schema);

  let schemaReady: Promise<void> | undefined;
  const ready = (): Promise<void> =>
    (schemaReady ??= ensurePostgresSchema(pool, names).catch((error: unknown) => {
      schemaReady = undefined;
      throw error;
    }));

  let closing: Promise<void> | undefined;
  const context: PostgresStoreContext = { pool, names, listener, ready, label, durability };
  const workListener = createPostgresWorkListener(options.connectionString, names.workChannel);
  const store: PostgresEventStore = {
    label,
    appendToStream: (streamId, events, appendOptions) =>
      postgresAppend(context, streamId, events, appendOptions),
    readStream: (streamId, readOptions) => postgresRead(context, streamId, readOptions ?? {}),
    subscribeToStream: (streamId, subscribeOptions) =>
      postgresSubscribe(context, streamId, subscribeOptions?.fromRevision),
    listStreams: () => postgresList(context),
    work: createPostgresWorkIndex(context, workListener),
    close: () =>
      (closing ??= guardStore(label, 'closing the store failed', async () => {
        await listener.close();
        await workListener.close();
        await pool.end();
      })),
  };
  listeners.set(store, listener);
  return store;
}

const listeners = new WeakMap<EventStore, PostgresListener>();

/**
 * Test-only introspection: how many live subscriptions a PostgreSQL store is feeding. Returns 0 for
 * a store that `createPostgresEventStore` did not make.
 */
export function countPostgresSubscriptions(store: EventStore): number {
  return listeners.get(store)?.size ?? 0;
}
