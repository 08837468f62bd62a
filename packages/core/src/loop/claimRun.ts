import type { RunScope } from './runScope.js';
import { keepRunLease } from './keepRunLease.js';

/** The shortest lease a run renews (SPEC WRK-4); a shorter one is judged at each claim only. */
export const MIN_RENEWED_LEASE_MS = 100;

/** A run's claim as the interpreter holds it: the run's signal, and how to let the lease go. */
export interface ClaimedRun {
  /** The caller's signal joined with the lease's: aborted when the run loses the stream. */
  readonly signal: AbortSignal | undefined;
  stop(): void;
}

/**
 * Makes the run's first append a claim of the stream for `owner` (SPEC WRK-4): the store refuses
 * it while another owner's lease is live, on its own clock, and gives it a fencing token that
 * every later append of the run states (WRK-8). On a store with a work index the lease is renewed
 * while the run works; when it is lost, the run appends nothing more and its tools see its signal
 * abort. A store without a work index keeps no leases: there the run is fenced by revision alone.
 */
export function claimRun(
  scope: RunScope,
  owner: string,
  callerSignal: AbortSignal | undefined,
): ClaimedRun {
  const { writer, settings, config } = scope;
  // A lease of 0 ms (a crashed run may be resumed at once) still needs a claim the store accepts.
  const leaseMs = Math.max(1, settings.runLeaseMs);
  const work = config.store.work;
  // A lease shorter than a timer's tick cannot be renewed in time: another process may claim the
  // run at any moment, and the store's fence alone keeps this run from appending after it did.
  if (work === undefined || settings.runLeaseMs < MIN_RENEWED_LEASE_MS) {
    writer.claimNext({ owner, leaseMs });
    return { signal: callerSignal, stop: () => undefined };
  }
  const lost = new AbortController();
  const lease = keepRunLease(work, writer.streamId, owner, leaseMs, (error) => {
    writer.loseRun(error);
    lost.abort(error);
  });
  writer.claimNext({ owner, leaseMs }, (fence) => lease.claimed(fence));
  return {
    signal: callerSignal === undefined ? lost.signal : AbortSignal.any([callerSignal, lost.signal]),
    stop: () => lease.stop(),
  };
}
