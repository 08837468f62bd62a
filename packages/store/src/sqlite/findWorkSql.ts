/**
 * The SQL of `findWork`: streams whose status is requested or ready (through the partial index
 * `agentlog_work_waiting`) and running streams whose lease ended before now (through
 * `agentlog_work_leases`), of the wanted agents, oldest first; an agent with a cap in `caps` (the
 * table `agentlog_caps`, SPEC WRK-10, or an empty stand-in on a database older than schema
 * version 5) gets at most its cap minus its running streams whose lease is live. A running stream
 * without a lease never lapses.
 */
export const findWorkSql = (caps: string): string => `
  WITH wanted(agent) AS (SELECT value FROM json_each(@agents)),
  live AS (
    SELECT agent, count(*) AS n FROM agentlog_work
    WHERE status = 'running' AND (lease_until IS NULL OR lease_until >= @now)
      AND agent IN (SELECT agent FROM wanted)
    GROUP BY agent
  ),
  budget AS (
    SELECT caps.agent, caps.cap - coalesce(live.n, 0) AS room
    FROM ${caps} AS caps LEFT JOIN live ON live.agent = caps.agent
    WHERE caps.agent IN (SELECT agent FROM wanted)
  ),
  due AS (
    SELECT stream_id, status, agent, owner, since, since AS due_at FROM agentlog_work
    WHERE status IN ('requested', 'ready') AND agent IN (SELECT agent FROM wanted)
    UNION ALL
    SELECT stream_id, status, agent, owner, since, lease_until AS due_at FROM agentlog_work
    WHERE status = 'running' AND lease_until < @now AND agent IN (SELECT agent FROM wanted)
  ),
  ranked AS (
    SELECT due.*, row_number() OVER (PARTITION BY agent ORDER BY due_at, stream_id) AS place
    FROM due
  )
  SELECT ranked.stream_id, ranked.status, ranked.agent, ranked.owner, ranked.since
  FROM ranked LEFT JOIN budget ON budget.agent = ranked.agent
  WHERE budget.room IS NULL OR ranked.place <= budget.room
  ORDER BY ranked.due_at, ranked.stream_id
  LIMIT @limit`;

/**
 * The SQL of `unservedWork` (SPEC WRK-9): the streams `findWork` would list (requested or ready,
 * or running with a lease that ended before now), in its order, but of any agent name that is not
 * one of `@agents`, or of none; no caps. It reads the same two partial indexes, so it costs what
 * the streams that need work cost, never the finished ones.
 */
export const unservedWorkSql = `
  WITH served(agent) AS (SELECT value FROM json_each(@agents))
  SELECT stream_id, status, agent, owner, since FROM (
    SELECT stream_id, status, agent, owner, since, since AS due_at FROM agentlog_work
    WHERE status IN ('requested', 'ready')
      AND (agent IS NULL OR agent NOT IN (SELECT agent FROM served))
    UNION ALL
    SELECT stream_id, status, agent, owner, since, lease_until AS due_at FROM agentlog_work
    WHERE status = 'running' AND lease_until < @now
      AND (agent IS NULL OR agent NOT IN (SELECT agent FROM served))
  )
  ORDER BY due_at, stream_id
  LIMIT @limit`;
