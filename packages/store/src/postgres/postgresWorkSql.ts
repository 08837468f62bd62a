import type { PostgresNames } from './postgresSchema.js';

/**
 * The SQL of `findWork`: streams whose status is requested or ready (through the partial index
 * `work_waiting`) and running streams whose lease ended before the server's now (through
 * `work_leases`), of the wanted agents ($1), oldest first; an agent with a cap (the caps table,
 * SPEC WRK-10) gets at most its cap minus its running streams whose lease is live; at most $2
 * rows. A running stream without a lease never lapses.
 */
export function findSql(names: PostgresNames): string {
  return `
    WITH live AS (
      SELECT agent, count(*) AS n FROM ${names.work}
      WHERE status = 'running' AND (lease_until IS NULL OR lease_until >= now())
        AND agent = ANY($1::text[])
      GROUP BY agent
    ),
    budget AS (
      SELECT caps.agent, caps.cap - coalesce(live.n, 0) AS room
      FROM ${names.caps} AS caps LEFT JOIN live ON live.agent = caps.agent
      WHERE caps.agent = ANY($1::text[])
    ),
    due AS (
      SELECT stream_id, status, agent, owner, since, since AS due_at FROM ${names.work}
      WHERE status IN ('requested', 'ready') AND agent = ANY($1::text[])
      UNION ALL
      SELECT stream_id, status, agent, owner, since, lease_until AS due_at FROM ${names.work}
      WHERE status = 'running' AND lease_until < now() AND agent = ANY($1::text[])
    ),
    ranked AS (
      SELECT due.*, row_number() OVER (PARTITION BY agent ORDER BY due_at, stream_id) AS place
      FROM due
    )
    SELECT ranked.stream_id, ranked.status, ranked.agent, ranked.owner, ranked.since
    FROM ranked LEFT JOIN budget ON budget.agent = ranked.agent
    WHERE budget.room IS NULL OR ranked.place <= budget.room
    ORDER BY ranked.due_at, ranked.stream_id
    LIMIT $2`;
}

/**
 * The SQL of `unservedWork` (SPEC WRK-9): the streams `findSql` would find now, of no agent of $1
 * or of none at all, oldest first, at most $2; through the same partial indexes.
 */
export function unservedSql(names: PostgresNames): string {
  return `
    WITH due AS (
      SELECT stream_id, status, agent, owner, since, since AS due_at FROM ${names.work}
      WHERE status IN ('requested', 'ready') AND (agent IS NULL OR agent <> ALL($1::text[]))
      UNION ALL
      SELECT stream_id, status, agent, owner, since, lease_until AS due_at FROM ${names.work}
      WHERE status = 'running' AND lease_until < now()
        AND (agent IS NULL OR agent <> ALL($1::text[]))
    )
    SELECT stream_id, status, agent, owner, since FROM due
    ORDER BY due_at, stream_id
    LIMIT $2`;
}
