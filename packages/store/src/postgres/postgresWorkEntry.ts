import type { PoolClient } from 'pg';
import type { WorkEntry } from '@agentlog/core';
import type { PostgresNames } from './postgresSchema.js';

/**
 * Upserts the stream's work-index entry, in the append's transaction, by the server's clock (the
 * transaction's `now()`): `since` changes only when the status does; a running stream's owner and
 * lease end are set from `work`, and cleared in any other status (SPEC WRK-4, WRK-6). `fence` is
 * the new fencing token when the append claimed the run (SPEC WRK-8); otherwise the token stays.
 */
export async function writeWorkEntry(
  client: PoolClient,
  names: PostgresNames,
  streamId: string,
  work: WorkEntry,
  fence: number | null,
): Promise<void> {
  const running = work.status === 'running';
  await client.query(
    `INSERT INTO ${names.work} AS w
       (stream_id, status, agent, owner, lease_until, since, updated, fence)
     VALUES ($1, $2, $3, $4, now() + $5::bigint * interval '1 millisecond', now(), now(), $6)
     ON CONFLICT (stream_id) DO UPDATE SET
       since = CASE WHEN w.status = excluded.status THEN w.since ELSE excluded.since END,
       status = excluded.status,
       agent = coalesce(excluded.agent, w.agent),
       owner = excluded.owner,
       lease_until = excluded.lease_until,
       updated = excluded.updated,
       fence = coalesce(excluded.fence, w.fence)`,
    [
      streamId,
      work.status,
      work.agent ?? null,
      running ? (work.owner ?? null) : null,
      running && work.leaseMs !== undefined ? work.leaseMs : null,
      fence,
    ],
  );
}
