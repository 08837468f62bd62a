import { LeaseLostError } from '../errors/leaseLostError.js';
import { describeThrown } from '../errors/toolError.js';
import type { WorkIndex } from '../ports/workIndex.js';

/** A run's lease as its run keeps it: `claimed` once the claim is stored, `stop` at the end. */
export interface RunLease {
  /** The claim is stored with this fencing token: from now on the lease is renewed. */
  claimed(fence: number): void;
  stop(): void;
}

/**
 * Renews a run's lease every third of `leaseMs` on the store's clock (SPEC WRK-4), stating the
 * claim's fencing token (WRK-8). Calls `lose` with a `LeaseLostError` when the store says another
 * claim came since, when renewal failed for longer than the lease, or when this process did not
 * run for longer than the lease (it was paused, SIGSTOP): then the run must append nothing more
 * and its tools see their signal aborted. Elapsed time is measured on the monotonic clock (only
 * its rate matters, never the local time of day), and a gap is judged before any round trip, so a
 * process that wakes from a pause learns it lost the run before its tools can act.
 */
export function keepRunLease(
  work: WorkIndex,
  streamId: string,
  owner: string,
  leaseMs: number,
  lose: (error: LeaseLostError) => void,
): RunLease {
  let fence: number | undefined;
  let lastRenewed = performance.now();
  let renewing = false;
  let lost = false;
  const fail = (why: string): void => {
    if (lost) return;
    lost = true;
    clearInterval(timer);
    lose(
      new LeaseLostError(
        streamId,
        fence,
        undefined,
        `stream ${streamId}: ${owner} lost the run's lease (${why}); it appends nothing more`,
      ),
    );
  };
  const renew = async (): Promise<void> => {
    if (fence === undefined || lost) return;
    const sinceMs = performance.now() - lastRenewed;
    // Another process may have claimed the run meanwhile: judged before anything else runs.
    if (sinceMs > leaseMs) return fail(`no renewal for ${Math.round(sinceMs)} ms`);
    if (renewing) return;
    renewing = true;
    const asked = performance.now();
    try {
      if (await work.renewLease(streamId, owner, leaseMs, fence)) lastRenewed = asked;
      else fail('the store says another process claimed it, or the run ended');
    } catch (error) {
      const failingMs = performance.now() - lastRenewed;
      if (failingMs > leaseMs)
        fail(`renewal failed for ${Math.round(failingMs)} ms: ${describeThrown(error)}`);
    } finally {
      renewing = false;
    }
  };
  const timer = setInterval(() => void renew(), Math.max(1, Math.floor(leaseMs / 3)));
  // A lease keeper never holds a process open on its own.
  timer.unref?.();
  return {
    claimed: (token) => {
      fence = token;
      lastRenewed = performance.now();
    },
    stop: () => {
      lost = true;
      clearInterval(timer);
    },
  };
}
