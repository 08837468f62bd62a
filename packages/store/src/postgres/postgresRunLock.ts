import type { PoolClient } from 'pg';
import type { AppendOptions, NewStreamEvent } from '@agentlog/core';
import type { FencedEntry } from '@agentlog/core/store-kit';
import type { PostgresNames } from './postgresSchema.js';

/**
 * The first key of the `pg_advisory_xact_lock(int, int)` an append takes on a stream that has no
 * work row yet; the second is `hashtext(stream_id)`. Spells "agtr".
 */
const runLockClass = 0x61677472;

/** The stream's run as an append judges its fence on it, and the server's now (ms). */
export interface LockedRun {
  readonly entry: FencedEntry | undefined;
  readonly now: number;
}

interface RunRow {
  readonly status: FencedEntry['status'];
  readonly owner: string | null;
  /** Numeric: text. */
  readonly lease_until: string | null;
  readonly fence: string | null;
  readonly now: string;
}

/**
 * Whether an append must lock its stream's run before it writes: `judgeFence` can refuse it (a
 * token, a claim, a run start), or it writes the work row (so that two appends that both find no
 * row take turns, see `lockRun`).
 */
export function locksRun(
  events: readonly NewStreamEvent[],
  options: AppendOptions | undefined,
): boolean {
  if (options === undefined) return events.some((event) => event.type === 'RunStarted');
  return (
    options.work !== undefined ||
    options.claim !== undefined ||
    options.fence !== undefined ||
    events.some((event) => event.type === 'RunStarted')
  );
}

/**
 * Reads the stream's work row locked for the append's transaction (SPEC WRK-4, WRK-8), with the
 * server's now: another append that locks it waits until this transaction ends, then reads what
 * it wrote, so a claim and a fenced append never both pass on the same state. A stream without a
 * row yet has nothing to lock: the appends that find none take a transaction-scoped advisory lock
 * on the stream id instead, and look again (the row may have been written meanwhile). Work rows
 * are never deleted, so once there, the row lock serialises every later one.
 */
export async function lockRun(
  client: PoolClient,
  names: PostgresNames,
  streamId: string,
): Promise<LockedRun> {
  const select = `
    SELECT status, owner, fence,
      extract(epoch FROM lease_until) * 1000 AS lease_until,
      extract(epoch FROM now()) * 1000 AS now
    FROM ${names.work} WHERE stream_id = $1 FOR UPDATE`;
  let row = (await client.query<RunRow>(select, [streamId])).rows[0];
  if (row === undefined) {
    const locked = await client.query<{ now: string }>(
      `SELECT pg_advisory_xact_lock($1, hashtext($2)), extract(epoch FROM now()) * 1000 AS now`,
      [runLockClass, streamId],
    );
    row = (await client.query<RunRow>(select, [streamId])).rows[0];
    if (row === undefined) return { entry: undefined, now: Number(locked.rows[0]?.now) };
  }
  return {
    entry: {
      status: row.status,
      owner: row.owner,
      leaseUntil: row.lease_until === null ? null : Number(row.lease_until),
      fence: row.fence === null ? null : Number(row.fence),
    },
    now: Number(row.now),
  };
}
