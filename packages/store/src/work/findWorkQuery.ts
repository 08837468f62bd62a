import type { WorkItem, WorkReason } from '@agentlog/core';

/** A row of a `findWork` query, as both SQL stores select it. */
export interface FoundRow {
  readonly stream_id: string;
  readonly status: string;
  readonly agent: string | null;
  readonly owner: string | null;
  /** Milliseconds since the epoch (SQLite) or a `Date` (PostgreSQL's timestamptz). */
  readonly since: number | Date;
}

/** The `WorkItem` of a found row: a running row is found only because its lease lapsed. */
export function toWorkItem(row: FoundRow): WorkItem {
  const reason: WorkReason = row.status === 'running' ? 'leaseLapsed' : (row.status as WorkReason);
  return {
    streamId: row.stream_id,
    reason,
    ...(row.agent === null ? {} : { agent: row.agent }),
    since: isoTime(row.since),
    ...(reason === 'leaseLapsed' && row.owner !== null ? { owner: row.owner } : {}),
  };
}

/** A stored time as the work index hands it out: an ISO-8601 string. */
export function isoTime(time: number | Date): string {
  return (typeof time === 'number' ? new Date(time) : time).toISOString();
}
