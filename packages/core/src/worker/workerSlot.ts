import type { Subject } from 'rxjs';
import { runWithChannel } from '../api/runOptions.js';
import { isAgentAtCap, isLeaseLost, isRunOwned } from '../errors/fenceErrors.js';
import { isAgentlogError } from '../errors/agentlogError.js';
import { describeThrown } from '../errors/toolError.js';
import type { WorkerIdentity } from '../events/agentEvent.js';
import type { WorkItem } from '../ports/workIndex.js';
import type { WorkerActivity } from './workerActivity.js';
import type { WorkerAgent } from './workerAgent.js';

/** One run a worker holds. */
export interface WorkerSlot {
  readonly agent: WorkerAgent;
  readonly controller: AbortController;
  /** Settles when the run ended, whatever way; never rejects. */
  readonly done: Promise<void>;
  /** The worker aborted it to shut down: it did not end on its own. */
  shutDown: boolean;
  /** Another process claimed the run, or never let it go: it is not this worker's to release. */
  lost: boolean;
}

/**
 * Runs `agent` for `item` as `worker` (SPEC WRK-2, WRK-7): the run's first append claims the
 * stream, judged by the store (WRK-4). Reports on `activity`: `claimed` once the claim is stored,
 * then `waiting`, `finished`, `lost` or `failed`. A claim refused because another process's run
 * is live, because another worker won the race, or because the agent is at its cap (WRK-10), is
 * no failure: it is not reported at all.
 */
export function startSlot(
  agent: WorkerAgent,
  item: WorkItem & { readonly agent: string },
  worker: WorkerIdentity,
  activity: Subject<WorkerActivity>,
): WorkerSlot {
  const { streamId } = item;
  const controller = new AbortController();
  const claim = agent.events$.subscribe((event) => {
    if (event.type === 'RunStarted' && event.data.worker?.id === worker.id) {
      activity.next({ kind: 'claimed', streamId, agent: item.agent, reason: item.reason });
    }
  });
  const slot: WorkerSlot = {
    agent,
    controller,
    shutDown: false,
    lost: false,
    done: agent[runWithChannel]('run', undefined, { signal: controller.signal }, { worker })
      .then(() => {
        const state = agent.state();
        const kind = state.stopReason?.kind;
        if (kind === 'feedbackRequired') activity.next({ kind: 'waiting', streamId });
        else
          activity.next({
            kind: 'finished',
            streamId,
            ...(kind === undefined ? {} : { stop: kind }),
          });
      })
      .catch((error: unknown) => {
        if (isRunOwned(error) || isAgentAtCap(error)) {
          // Another worker won the race for the run, or its owner is alive (SPEC WRK-3, WRK-4),
          // or other runs of its agent took the cap's last place first (WRK-10): not now.
          slot.lost = true;
          return;
        }
        if (isLeaseLost(error)) {
          slot.lost = true;
          activity.next({ kind: 'lost', streamId, message: describeThrown(error) });
          return;
        }
        if (isAgentlogError(error) && error.code === 'nothingToRun') return;
        if (slot.shutDown) return;
        activity.next({ kind: 'failed', streamId, message: describeThrown(error) });
      })
      .finally(() => claim.unsubscribe()),
  };
  return slot;
}
