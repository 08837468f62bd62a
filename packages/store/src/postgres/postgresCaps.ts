import type { WorkIndex } from '@agentlog/core';
import { assertAgentCaps } from '@agentlog/core/store-kit';
import type { PostgresNames } from './postgresSchema.js';

/** Runs one statement of the work index, as `createPostgresWorkIndex` does (guarded, schema ready). */
type Query = <R extends object>(
  what: string,
  sql: string,
  values?: unknown[],
) => Promise<{ rows: R[]; rowCount: number }>;

/**
 * `caps` and `setCaps` of a PostgreSQL store's work index (SPEC WRK-10), on its caps table. A
 * claim locks the agent's row for its transaction (`judgePostgresClaimCap`), so `setCaps` of that
 * name waits for the claims in flight, and they for it.
 */
export function postgresCaps(
  names: PostgresNames,
  query: Query,
): Pick<WorkIndex, 'caps' | 'setCaps'> {
  return {
    caps: async () => {
      const { rows } = await query<{ agent: string; cap: string }>(
        'reading the caps',
        `SELECT agent, cap FROM ${names.caps} ORDER BY agent`,
      );
      return Object.fromEntries(rows.map((row) => [row.agent, Number(row.cap)]));
    },
    setCaps: async (caps) => {
      assertAgentCaps(caps);
      if (Object.keys(caps).length === 0) return {};
      // One statement: the caps before it (its snapshot), the upserts in the order of the names
      // (two such statements lock rows in one order), the removals.
      const { rows } = await query<{ agent: string; cap: string }>(
        'setting the caps',
        `WITH given AS (
           SELECT key AS agent, value::bigint AS cap FROM json_each_text($1::json)
         ),
         upserted AS (
           INSERT INTO ${names.caps} (agent, cap, updated)
           SELECT agent, cap, now() FROM given WHERE cap IS NOT NULL ORDER BY agent
           ON CONFLICT (agent) DO UPDATE SET cap = excluded.cap, updated = excluded.updated
         ),
         removed AS (
           DELETE FROM ${names.caps} AS caps USING given
           WHERE caps.agent = given.agent AND given.cap IS NULL
         )
         SELECT caps.agent, caps.cap FROM ${names.caps} AS caps JOIN given USING (agent)`,
        [JSON.stringify(caps)],
      );
      // A cap raised or removed may free work that findWork held back: the workers look again.
      await query('waking the workers', 'SELECT pg_notify($1, $2)', [names.workChannel, 'caps']);
      return Object.fromEntries(rows.map((row) => [row.agent, Number(row.cap)]));
    },
  };
}
