import type { WorkEntry } from '@agentlog/core';
import { appendedLeaseEnd } from './appendedLeaseEnd.js';
import type { SqliteWorkStatements } from './prepareSqliteWorkStatements.js';

/**
 * Writes a stream's work-index entry (SPEC WRK-6) inside the append's transaction, at `now` on the
 * store's clock: the owner and the lease end only for a running stream, the lease end rounded as
 * `appendedLeaseEnd` says.
 */
export function upsertSqliteWork(
  sql: SqliteWorkStatements,
  streamId: string,
  work: WorkEntry,
  now: number,
): void {
  const running = work.status === 'running';
  sql.upsert.run({
    streamId,
    status: work.status,
    agent: work.agent ?? null,
    owner: running ? (work.owner ?? null) : null,
    leaseUntil: running && work.leaseMs !== undefined ? appendedLeaseEnd(now, work.leaseMs) : null,
    now,
  });
}
