import type { Subject } from 'rxjs';
import type { WorkIndex } from '../ports/workIndex.js';
import type { WorkerActivity } from './workerActivity.js';

/**
 * Writes a worker's `caps` option into the store as it starts (SPEC WRK-10): the store's caps are
 * the ones every claim is judged against, and the last worker to start sets those it names (the
 * others stay as they are). Where the store held another value for a name, set by another worker
 * or an operator, it reports `capChanged` once, so two deployments that disagree are heard of.
 */
export async function publishCaps(
  work: WorkIndex,
  caps: Readonly<Record<string, number | null>> | undefined,
  activity: Subject<WorkerActivity>,
): Promise<void> {
  if (caps === undefined || Object.keys(caps).length === 0) return;
  const before = await work.setCaps(caps);
  for (const [agent, cap] of Object.entries(caps)) {
    const previous = before[agent];
    if (previous !== undefined && previous !== cap) {
      activity.next({ kind: 'capChanged', agent, cap, previous });
    }
  }
}
