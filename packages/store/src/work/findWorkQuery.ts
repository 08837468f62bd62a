import type { WorkIndex, WorkItem, WorkReason } from '@agentlog/core';

/** The options of `WorkIndex.findWork`. */
export type FindWorkOptions = Parameters<WorkIndex['findWork']>[0];

/**
 * Throws a `RangeError` naming the option unless `options` are valid `findWork` options: a whole
 * `limit` >= 0, `agents` an array of strings, each cap a whole number >= 0.
 */
export function assertFindWorkOptions(options: FindWorkOptions): void {
  const { limit, agents, caps } = options;
  if (!Number.isSafeInteger(limit) || limit < 0) {
    throw new RangeError(`findWork: limit must be a whole number >= 0, not ${String(limit)}`);
  }
  if (!Array.isArray(agents) || agents.some((agent) => typeof agent !== 'string')) {
    throw new RangeError('findWork: agents must be an array of agent names');
  }
  for (const [agent, cap] of Object.entries(caps ?? {})) {
    if (!Number.isSafeInteger(cap) || cap < 0) {
      throw new RangeError(
        `findWork: caps[${JSON.stringify(agent)}] must be a whole number >= 0, not ${String(cap)}`,
      );
    }
  }
}

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
