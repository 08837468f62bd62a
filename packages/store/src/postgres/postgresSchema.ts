import type { Pool, PoolClient } from 'pg';
import { pg } from './pgDriver.js';
import { AgentlogError } from '@agentlog/core';
import { inTransaction, UncertainCommit, withPooledClient } from './postgresClient.js';
import { createAppendFunction } from './postgresAppendFunction.js';
import { createCapsTable } from './postgresClaimCap.js';
import { addFenceColumns, addWaitingStatus, createWorkTables } from './postgresWorkTables.js';

/**
 * The version of the tables this code writes and reads; stored in the schema's `meta` table.
 * Version 2 added the work index (`work`, `workers`); version 3 added the `waiting` status to it;
 * version 4 the fencing token of a stream's claim (`work.fence`) and the agent names of a worker
 * (`workers.agents`); version 5 the caps per agent name (`caps`, SPEC WRK-10) and their check at a
 * claim (`claim_cap_v1`). An older schema is brought up to date on first use
 * (`ensurePostgresSchema`).
 */
export const postgresSchemaVersion = 5;

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
  /**
   * `"schema".subscribers`, quoted: the streams some subscription follows, by the backend pid of
   * its LISTEN connection; an append notifies only a stream listed there.
   */
  readonly subscribers: string;
  /** `"schema".caps`, quoted: the caps per agent name (SPEC WRK-10). */
  readonly caps: string;
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
    subscribers: `${quoted}.subscribers`,
    caps: `${quoted}.caps`,
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
    // allows `waiting`; from version 3, `addFenceColumns` adds the fence; from version 4,
    // `createCapsTable` adds the caps. The events stay as they are.
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
  await createAppendFunction(client, names);
  await createCapsTable(client, names);
  if (version !== undefined && version < 3) await addWaitingStatus(client, names);
  if (version !== undefined && version < 4) await addFenceColumns(client, names);
  await client.query(
    `INSERT INTO ${names.meta} (key, value) VALUES ('schemaVersion', $1)
     ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
    [String(postgresSchemaVersion)],
  );
}
