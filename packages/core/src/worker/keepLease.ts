import { ConcurrencyError } from '../errors/concurrencyError.js';
import { describeThrown } from '../errors/toolError.js';
import type { WorkIndex } from '../ports/workIndex.js';

/** A run's lease as its worker keeps it: stop renewing with `stop()`. */
export interface LeaseKeeper {
  /** The run's first append is stored: from now on its lease is renewed. */
  claimed(): void;
  stop(): void;
}

/**
 * Renews a run's lease every third of `leaseMs` (SPEC WRK-4), on the store's clock. When the
 * index says the run is not this worker's any more, or renewal failed for longer than the lease,
 * aborts `controller` with a `ConcurrencyError`: the run's writer then appends nothing more.
 * Elapsed time is measured locally (only its rate matters, never the local time of day).
 */
export function keepLease(
  work: WorkIndex,
  streamId: string,
  owner: string,
  leaseMs: number,
  controller: AbortController,
): LeaseKeeper {
  let claimed = false;
  let lastRenewed = performance.now();
  let renewing = false;
  const lose = (why: string): void => {
    if (controller.signal.aborted) return;
    controller.abort(
      new ConcurrencyError(
        streamId,
        'any',
        'noStream',
        `stream ${streamId}: worker ${owner} lost the run's lease (${why}); it appends nothing more`,
      ),
    );
  };
  const renew = async (): Promise<void> => {
    if (!claimed || renewing || controller.signal.aborted) return;
    renewing = true;
    try {
      if (await work.renewLease(streamId, owner, leaseMs)) lastRenewed = performance.now();
      else lose('the store says another worker holds it, or the run ended');
    } catch (error) {
      const failingMs = performance.now() - lastRenewed;
      if (failingMs > leaseMs)
        lose(`renewal failed for ${Math.round(failingMs)} ms: ${describeThrown(error)}`);
    } finally {
      renewing = false;
    }
  };
  const timer = setInterval(() => void renew(), Math.max(1, Math.floor(leaseMs / 3)));
  return {
    claimed: () => {
      claimed = true;
      lastRenewed = performance.now();
    },
    stop: () => clearInterval(timer),
  };
}
