import type { WorkEntry } from '@agentlog/core';
import { appendedLeaseEnd } from './appendedLeaseEnd.js';
import type { SqliteHeadRow, SqliteWorkWrites } from './prepareSqliteWorkWrites.js';

/**
 * Writes a stream's work-index entry (SPEC WRK-6) inside the append's transaction, at `now` on the
 * store's clock: the owner and the lease end only for a running stream, the lease end rounded as
 * `appendedLeaseEnd` says. `fence` is the new fencing token when the append claimed the run (SPEC
 * WRK-8); without it the row keeps its token. `before` is the row as the append read it (`head`):
 * when it already says what the entry says, no statement runs at all. Most appends of a run are
 * such (same status, owner and rounded lease end), and the row was read anyway for the fence; the
 * upsert's own WHERE clause, which leaves such a row as it is, stays the rule for every other case.
 */
export function upsertSqliteWork(
  sql: SqliteWorkWrites,
  streamId: string,
  work: WorkEntry,
  now: number,
  fence: number | undefined,
  before: SqliteHeadRow,
): void {
  const running = work.status === 'running';
  const agent = work.agent ?? null;
  const owner = running ? (work.owner ?? null) : null;
  const leaseUntil =
    running && work.leaseMs !== undefined ? appendedLeaseEnd(now, work.leaseMs) : null;
  // Each test is one of the upsert's WHERE clause, negated: skipping here implies it would skip.
  if (
    before.status === work.status &&
    before.owner === owner &&
    before.lease_until === leaseUntil &&
    (agent === null || before.agent === agent) &&
    fence === undefined
  )
    return;
  sql.upsert.run({
    streamId,
    status: work.status,
    agent,
    owner,
    leaseUntil,
    fence: fence ?? null,
    now,
  });
}
