import type { PoolClient } from 'pg';
import { judgeCap } from '@agentlog/core/store-kit';
import { pg } from './pgDriver.js';
import type { PostgresAppend } from './postgresAppendDecision.js';
import type { PostgresNames } from './postgresSchema.js';

/** The name of the server-side cap check of a store; the suffix is its version. */
function claimCapFunctionName(names: PostgresNames): string {
  return `${pg.escapeIdentifier(names.schema)}.claim_cap_v1`;
}

/**
 * The cap check of a claim (SPEC WRK-10), a PL/pgSQL function called in the append's transaction
 * once the claim is written. The agent name is `p_agent`, else the stream's work row's. It locks
 * the agent's row of the caps table (`FOR UPDATE`, held until the transaction ends: two claims of
 * one capped agent take turns, and a claim of another agent never waits) and returns nothing when
 * the agent has no cap; otherwise its cap and its other running streams with a live lease by the
 * server's clock. The count is a statement of its own after the lock, so it reads with a snapshot
 * taken once the lock is held: it sees every claim that held the lock before.
 */
export function claimCapFunctionSql(names: PostgresNames): string {
  return `
CREATE FUNCTION ${claimCapFunctionName(names)}(p_stream text, p_agent text)
RETURNS TABLE (o_agent text, o_cap bigint, o_running bigint)
LANGUAGE plpgsql AS $fn$
BEGIN
  o_agent := coalesce(p_agent,
    (SELECT w.agent FROM ${names.work} AS w WHERE w.stream_id = p_stream));
  IF o_agent IS NULL THEN
    RETURN;
  END IF;
  SELECT c.cap INTO o_cap FROM ${names.caps} AS c WHERE c.agent = o_agent FOR UPDATE;
  IF NOT FOUND THEN
    RETURN;
  END IF;
  SELECT count(*) INTO o_running FROM ${names.work} AS w
  WHERE w.status = 'running' AND w.agent = o_agent AND w.stream_id <> p_stream
    AND (w.lease_until IS NULL OR w.lease_until > now());
  RETURN NEXT;
END
$fn$`;
}

/**
 * Creates the caps table and the cap check (`claimCapFunctionSql`) unless the schema has them;
 * run under the schema lock (`ensurePostgresSchema`).
 */
export async function createCapsTable(client: PoolClient, names: PostgresNames): Promise<void> {
  await client.query(`
    CREATE TABLE IF NOT EXISTS ${names.caps} (
      agent text PRIMARY KEY,
      cap bigint NOT NULL CHECK (cap >= 0),
      updated timestamptz NOT NULL
    )`);
  const found = await client.query(
    `SELECT 1 FROM pg_proc JOIN pg_namespace ON pg_namespace.oid = pg_proc.pronamespace
     WHERE nspname = $1 AND proname = 'claim_cap_v1'`,
    [names.schema],
  );
  if (found.rowCount === 0) await client.query(claimCapFunctionSql(names));
}

/**
 * Judges a claim against its agent name's cap (SPEC WRK-10), in the append's transaction after
 * the claim was written (`judgeFence` and the revision passed): throws `AgentAtCapError`, and the
 * transaction is rolled back, when the agent's other live runs reached its cap. Only an append
 * that claims a run and leaves it running pays for it: one more statement in its transaction.
 */
/** Whether `append` claims a run and leaves it running, so its agent's cap must judge it. */
export function claimsUnderCap(append: PostgresAppend): boolean {
  const { claim, work } = append.options;
  return claim !== undefined && work?.status === 'running';
}

export async function judgePostgresClaimCap(
  client: PoolClient,
  names: PostgresNames,
  append: PostgresAppend,
): Promise<void> {
  const { work } = append.options;
  if (!claimsUnderCap(append) || work === undefined) return;
  const { rows } = await client.query<{ o_agent: string; o_cap: string; o_running: string }>({
    name: 'agentlog_claim_cap_v1',
    text: `SELECT * FROM ${claimCapFunctionName(names)}($1::text, $2::text)`,
    values: [append.streamId, work.agent ?? null],
  });
  const row = rows[0];
  if (row === undefined) return;
  judgeCap(append.streamId, row.o_agent, Number(row.o_cap), Number(row.o_running));
}
