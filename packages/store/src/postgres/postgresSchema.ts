import type { Pool, PoolClient } from 'pg';
import { pg } from './pgDriver.js';
import { AgentlogError } from '@agentlog/core';
import { inTransaction, UncertainCommit, withPooledClient } from './postgresClient.js';

/**
 * The version of the tables this code writes and reads; stored in the schema's `meta` table.
 * Version 2 added the work index (`work`, `workers`); version 3 added the `waiting` status to it.
 * An older schema is brought up to date on first use (`ensurePostgresSchema`).
 */
export const postgresSchemaVersion = 3;

/** The schema the store uses when none is given. */
export const defaultPostgresSchema = 'agentlog';

const schemaNamePattern = /^[a-z_][a-z0-9_]{0,47}$/;

/**
 * The first key of the `pg_advisory_xact_lock(int, int)` that serialises schema creation; the
 * second is `hashtext(schema)`. Spells "agtl".
 */
const advisoryLockClass = 0x6167746c;

/** The SQL names of a store's tables and its notification channel. */
export interface PostgresNames {
  readonly schema: string;
  /** `"schema".events`, quoted. */
  readonly events: string;
  /** `"schema".meta`, quoted. */
  readonly meta: string;
  /** The LISTEN/NOTIFY channel appends notify on (the stream id is the payload). */
  readonly channel: string;
  /** `"schema".work`, quoted: the work index, one row per stream (SPEC WRK-6). */
  readonly work: string;
  /** `"schema".workers`, quoted: the workers' heartbeats. */
  readonly workers: string;
  /**
   * The channel an append that makes a stream need work (status requested or ready) notifies on,
   * the stream id as payload; `waitForWork` listens on it.
   */
  readonly workChannel: string;
}

/**
 * Checks a schema name and derives the table and channel names from it. Names are limited to
 * lower-case letters, digits and `_` (at most 48 characters), so they need no case folding and the
 * channel name stays within PostgreSQL's 63-byte identifier limit.
 */
export function postgresNames(schema: string = defaultPostgresSchema): PostgresNames {
  if (typeof schema !== 'string' || !schemaNamePattern.test(schema)) {
    throw new AgentlogError(
      'invalidOption',
      `invalid PostgreSQL schema name ${JSON.stringify(schema)}: use 1 to 48 lower-case letters, digits or "_", not starting with a digit`,
    );
  }
  const quoted = pg.escapeIdentifier(schema);
  return {
    schema,
    events: `${quoted}.events`,
    meta: `${quoted}.meta`,
    channel: `${schema}_appended`,
    work: `${quoted}.work`,
    workers: `${quoted}.workers`,
    workChannel: `${schema}_work`,
  };
}

/**
 * Creates the schema, its tables and indexes if they are missing, and checks the schema version.
 * Safe to run from several processes at once: a transaction-scoped advisory lock serialises the
 * `CREATE ... IF NOT EXISTS` statements (which otherwise race on the catalog). Throws
 * `AgentlogError('newerSchema')` when the schema was written by a newer agentlog, and
 * `AgentlogError('unsupportedDatabase')` when the database does not store UTF-8.
 */
export function ensurePostgresSchema(pool: Pool, names: PostgresNames): Promise<void> {
  return withPooledClient(pool, async (client, session) => {
    const encoding = await client.query<{ server_encoding: string }>('SHOW server_encoding');
    const serverEncoding = encoding.rows[0]?.server_encoding;
    if (serverEncoding !== 'UTF8') {
      throw new AgentlogError(
        'unsupportedDatabase',
        `the PostgreSQL database stores ${String(serverEncoding)}, but agentlog needs a UTF8 database (CREATE DATABASE ... ENCODING 'UTF8')`,
      );
    }
    try {
      await inTransaction(client, session, () => createSchema(client, names));
    } catch (error) {
      // Every statement is IF NOT EXISTS: creating the schema again is safe.
      throw error instanceof UncertainCommit ? error.cause : error;
    }
  });
}

async function createSchema(client: PoolClient, names: PostgresNames): Promise<void> {
  await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [
    advisoryLockClass,
    names.schema,
  ]);
  await client.query(`CREATE SCHEMA IF NOT EXISTS ${pg.escapeIdentifier(names.schema)}`);
  await client.query(
    `CREATE TABLE IF NOT EXISTS ${names.meta} (key text PRIMARY KEY, value text NOT NULL)`,
  );
  const found = await client.query<{ value: string }>(
    `SELECT value FROM ${names.meta} WHERE key = 'schemaVersion'`,
  );
  const stored = found.rows[0]?.value;
  let version: number | undefined;
  if (stored !== undefined) {
    version = Number(stored);
    if (!Number.isSafeInteger(version) || version > postgresSchemaVersion) {
      throw new AgentlogError(
        'newerSchema',
        `the PostgreSQL schema "${names.schema}" has agentlog schema version ${stored}, but this @agentlog/store understands version ${postgresSchemaVersion} at most: upgrade @agentlog/store`,
      );
    }
    // From version 1, the statements below add the work index; from version 2, `addWaitingStatus`
    // allows `waiting`. The events stay as they are.
  }
  // `position` orders streams by creation (listStreams); the JSON columns keep the text exactly as
  // written (unlike jsonb, which reorders keys), so events read back byte for byte.
  await client.query(`
    CREATE TABLE IF NOT EXISTS ${names.events} (
      position bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
      stream_id text NOT NULL,
      revision bigint NOT NULL CHECK (revision >= 0),
      event_id text NOT NULL,
      type text NOT NULL,
      data json NOT NULL,
      metadata json NOT NULL,
      CONSTRAINT events_stream_revision UNIQUE (stream_id, revision),
      CONSTRAINT events_stream_event_id UNIQUE (stream_id, event_id)
    )`);
  await client.query(
    `CREATE INDEX IF NOT EXISTS events_stream_starts ON ${names.events} (position) WHERE revision = 0`,
  );
  await createWorkTables(client, names);
  if (version !== undefined && version < postgresSchemaVersion)
    await addWaitingStatus(client, names);
  await client.query(
    `INSERT INTO ${names.meta} (key, value) VALUES ('schemaVersion', $1)
     ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
    [String(postgresSchemaVersion)],
  );
}

/**
 * The work index (SPEC WRK-6): one row per stream that an append with a `work` entry wrote, times
 * by the server's clock. The partial indexes hold only the rows that need work or hold a lease, so
 * finding work never reads a finished stream's row. And the workers' heartbeats.
 */
async function createWorkTables(client: PoolClient, names: PostgresNames): Promise<void> {
  await client.query(`
    CREATE TABLE IF NOT EXISTS ${names.work} (
      stream_id text PRIMARY KEY,
      status text NOT NULL CONSTRAINT work_status_check
        CHECK (status IN ('requested', 'ready', 'running', 'waiting', 'idle')),
      agent text,
      owner text,
      lease_until timestamptz,
      since timestamptz NOT NULL,
      updated timestamptz NOT NULL
    )`);
  await client.query(
    `CREATE INDEX IF NOT EXISTS work_waiting ON ${names.work} (since)
     WHERE status IN ('requested', 'ready')`,
  );
  await client.query(
    `CREATE INDEX IF NOT EXISTS work_leases ON ${names.work} (lease_until) WHERE status = 'running'`,
  );
  await client.query(`
    CREATE TABLE IF NOT EXISTS ${names.workers} (
      id text PRIMARY KEY,
      host text NOT NULL,
      pid integer NOT NULL,
      started_at timestamptz NOT NULL,
      heartbeat_at timestamptz NOT NULL,
      runs json NOT NULL
    )`);
}

/**
 * Version 2 to 3, under the schema lock: the work table's status check is dropped and added again
 * with `waiting` (idempotent: `work_status_check` is the name PostgreSQL gave it and the one
 * version 3 gives it). Version 2 wrote `idle` for a stream that waits for a person; such a row
 * becomes `waiting` when the stream's last run start or stop is a stop for feedback, so the inbox
 * finds it. A row this judges wrongly costs the inbox one fold, and the stream's next append
 * rewrites it.
 */
async function addWaitingStatus(client: PoolClient, names: PostgresNames): Promise<void> {
  await client.query(`ALTER TABLE ${names.work} DROP CONSTRAINT IF EXISTS work_status_check`);
  await client.query(
    `ALTER TABLE ${names.work} ADD CONSTRAINT work_status_check
     CHECK (status IN ('requested', 'ready', 'running', 'waiting', 'idle'))`,
  );
  await client.query(`
    UPDATE ${names.work} AS work SET status = 'waiting'
    WHERE work.status = 'idle' AND (
      SELECT events.data->'reason'->>'kind' FROM ${names.events} AS events
      WHERE events.stream_id = work.stream_id AND events.type IN ('AgentStopped', 'RunStarted')
      ORDER BY events.revision DESC LIMIT 1
    ) = 'feedbackRequired'`);
}
