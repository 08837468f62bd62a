import type { WorkState } from '../ports/workIndex.js';
import { dateTime } from './summarizeArgs.js';

/**
 * What `agentlog list` shows of a stream's work-index entry (SPEC WRK-2, WRK-6): `requested`,
 * `ready` (a worker continues it), `running by <worker> until <time>` (the lease, by the store's
 * clock), `waiting` (for a person's decision: `agentlog pending` lists its calls), or `-` when it
 * needs nothing or the index does not know it. The agent name follows in
 * brackets when the stream has one.
 */
export function workColumn(work: WorkState | undefined): string {
  if (work === undefined) return '-';
  const agent = work.agent === undefined ? '' : ` [${work.agent}]`;
  switch (work.status) {
    case 'requested':
    case 'ready':
    case 'waiting':
      return `${work.status}${agent}`;
    case 'running': {
      const by = work.owner === undefined ? '' : ` by ${work.owner}`;
      const until = work.leaseUntil === undefined ? '' : ` until ${dateTime(work.leaseUntil)}`;
      return `running${by}${until}${agent}`;
    }
    case 'idle':
      return `-${agent}`;
  }
}
