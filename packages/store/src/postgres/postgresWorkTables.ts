import type { PoolClient } from 'pg';
import type { PostgresNames } from './postgresSchema.js';

/**
 * Creates the work index (SPEC WRK-6) if it is missing: one row per stream that an append with a
 * `work` entry wrote, times by the server's clock, with the fencing token of the stream's last
 * claim (SPEC WRK-8). The partial indexes hold only the rows that need work or hold a lease, so
 * finding work never reads a finished stream's row. And the workers' heartbeats, with the agent
 * names each runs (SPEC WRK-9).
 */
export async function createWorkTables(client: PoolClient, names: PostgresNames): Promise<void> {
  await client.query(`
    CREATE TABLE IF NOT EXISTS ${names.work} (
      stream_id text PRIMARY KEY,
      status text NOT NULL CONSTRAINT work_status_check
        CHECK (status IN ('requested', 'ready', 'running', 'waiting', 'idle')),
      agent text,
      owner text,
      lease_until timestamptz,
      since timestamptz NOT NULL,
      updated timestamptz NOT NULL,
      fence bigint
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
      runs json NOT NULL,
      agents json
    )`);
  // Unlogged: it lists live connections, which a crash of the server ends anyway.
  await client.query(`
    CREATE UNLOGGED TABLE IF NOT EXISTS ${names.subscribers} (
      stream_id text NOT NULL,
      pid integer NOT NULL,
      PRIMARY KEY (stream_id, pid)
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
export async function addWaitingStatus(client: PoolClient, names: PostgresNames): Promise<void> {
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

/**
 * Version 3 to 4, under the schema lock: the work table gains `fence` (no stream was claimed with
 * a token before, so every row starts without one, as a stream never claimed) and the workers table `agents`. Run only on an older schema: `ALTER TABLE`
 * takes the table's strongest lock even when the column is there.
 */
export async function addFenceColumns(client: PoolClient, names: PostgresNames): Promise<void> {
  await client.query(`ALTER TABLE ${names.work} ADD COLUMN IF NOT EXISTS fence bigint`);
  await client.query(`ALTER TABLE ${names.workers} ADD COLUMN IF NOT EXISTS agents json`);
}
