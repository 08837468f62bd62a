import type { Subject } from 'rxjs';
import { describeThrown } from '../errors/toolError.js';
import type { WorkerIdentity } from '../events/agentEvent.js';
import type { WorkerActivity } from './workerActivity.js';
import type { WorkerSlot } from './workerSlot.js';

const reason = 'the worker shut down';

/**
 * SPEC WRK-5: lets the runs finish for `graceMs`, aborts those still running (a tool that
 * finished keeps its outcome), waits for them, and releases each one it aborted and still holds.
 */
export async function shutDownSlots(
  slots: Map<string, WorkerSlot>,
  graceMs: number,
  worker: WorkerIdentity,
  activity: Subject<WorkerActivity>,
): Promise<void> {
  const held = [...slots.entries()];
  if (held.length === 0) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const grace = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, graceMs);
  });
  await Promise.race([Promise.all(held.map(([, slot]) => slot.done)), grace]);
  clearTimeout(timer);
  for (const [streamId, slot] of held) {
    if (!slots.has(streamId)) continue;
    slot.shutDown = true;
    slot.controller.abort(new Error('the worker is shutting down'));
  }
  await Promise.all(held.map(([, slot]) => slot.done));
  for (const [streamId, slot] of held) {
    if (slot.lost || !slot.shutDown) continue;
    try {
      await slot.agent.releaseRun(worker, { reason });
      activity.next({ kind: 'released', streamId, reason });
    } catch (error) {
      activity.next({
        kind: 'failed',
        streamId,
        message: `could not release the run: ${describeThrown(error)}`,
      });
    }
  }
}
