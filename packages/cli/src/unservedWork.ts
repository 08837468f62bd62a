import type { WorkIndex, WorkItem, WorkerInfo } from '@agentlog/core';

/** Workers whose heartbeat is younger than this, by the store's clock, are live. */
export const LIVE_WITHIN_MS = 60_000;

/** The live workers and the streams that need work none of them can take (SPEC WRK-9). */
export interface WorkersAndUnserved {
  /** The workers whose heartbeat is younger than {@link LIVE_WITHIN_MS}. */
  readonly workers: WorkerInfo[];
  /** Streams that need work under an agent name no live worker runs, or under none, oldest first. */
  readonly unserved: WorkItem[];
}

/**
 * Asks `index` for the live workers, then for at most `limit` streams that need work (requested,
 * ready, lease lapsed) whose agent name none of them runs or that record no agent name: with no
 * live worker, every stream that needs work (SPEC WRK-9).
 */
export async function unservedWork(index: WorkIndex, limit: number): Promise<WorkersAndUnserved> {
  const workers = await index.listWorkers({ withinMs: LIVE_WITHIN_MS });
  const agents = [...new Set(workers.flatMap((worker) => worker.agents ?? []))];
  const unserved = limit === 0 ? [] : await index.unservedWork({ limit, agents });
  return { workers, unserved };
}

/**
 * What `agentlog list` and `agentlog workers` say of a stream no live worker can take:
 * `ready, no worker for agent translator` (`requested, …`, `lease lapsed, …`), or, for a stream
 * that records no agent name, `ready, no agent name recorded: continue it in code or build its
 * agent with .name(...)`. The agent name is text from the store: the caller shows it with the
 * visible-text helpers (SPEC REV-1).
 */
export function unservedText(item: WorkItem): string {
  const why = item.reason === 'leaseLapsed' ? 'lease lapsed' : item.reason;
  return item.agent === undefined
    ? `${why}, no agent name recorded: continue it in code or build its agent with .name(...)`
    : `${why}, no worker for agent ${item.agent}`;
}
