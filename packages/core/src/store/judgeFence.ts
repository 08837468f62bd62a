import { LeaseLostError } from '../errors/leaseLostError.js';
import { RunOwnedError } from '../errors/runOwnedError.js';
import type { AppendOptions, NewStreamEvent } from '../ports/eventStore.js';
import type { WorkStatus } from '../ports/workIndex.js';

/** What a store's work index holds of a stream's run, as the fence is judged on it. */
export interface FencedEntry {
  readonly status: WorkStatus;
  readonly owner?: string | null;
  /** When the lease ends, in ms of the store's clock; `null` or absent: it never lapses. */
  readonly leaseUntil?: number | null;
  /** The fencing token of the stream's last claim, if it was claimed. */
  readonly fence?: number | null;
}

/**
 * Judges an append against the stream's run (SPEC WRK-4, WRK-8), inside the store's transaction
 * and on its clock (`now`, ms): throws `LeaseLostError` when the append states a fencing token
 * that is not the stream's, and `RunOwnedError` when it claims the run (or carries a
 * `RunStarted` without a claim: a forged start) while another owner holds a live lease. Returns
 * true when the append is a claim, so the store sets the token to its first event's revision.
 * Every store with a work index calls it; nothing is written when it throws.
 */
export function judgeFence(
  streamId: string,
  entry: FencedEntry | undefined,
  events: readonly NewStreamEvent[],
  options: Pick<AppendOptions, 'claim' | 'fence'>,
  now: number,
): boolean {
  const { claim, fence } = options;
  if (fence !== undefined && (entry?.fence ?? undefined) !== fence) {
    throw new LeaseLostError(streamId, fence, entry?.fence ?? undefined);
  }
  const starts = claim !== undefined || events.some((event) => event.type === 'RunStarted');
  if (!starts || entry?.status !== 'running') return claim !== undefined;
  const leaseUntil = entry.leaseUntil ?? undefined;
  const live = leaseUntil === undefined || leaseUntil > now;
  const owner = entry.owner ?? undefined;
  // The holder's own claim again (its run was cut off by a store outage, SPEC RES-4), or a run
  // start that states the current token (it is the run's own), passes.
  const own = (claim !== undefined && owner === claim.owner) || fence !== undefined;
  if (live && !own) {
    throw new RunOwnedError(
      streamId,
      owner,
      leaseUntil === undefined ? undefined : new Date(leaseUntil).toISOString(),
    );
  }
  return claim !== undefined;
}

/** Throws a `RangeError` naming the option unless `claim` and `fence` are well formed. */
export function assertFenceOptions(
  streamId: string,
  options: Pick<AppendOptions, 'claim' | 'fence'>,
): void {
  const where = `the append to stream ${streamId}`;
  const { claim, fence } = options;
  if (fence !== undefined && (!Number.isSafeInteger(fence) || fence < 0)) {
    throw new RangeError(`${where}: fence must be a whole number >= 0, not ${String(fence)}`);
  }
  if (claim === undefined) return;
  if (typeof claim !== 'object' || claim === null) {
    throw new RangeError(`${where}: claim must be { owner, leaseMs }, not ${String(claim)}`);
  }
  if (typeof claim.owner !== 'string' || claim.owner === '') {
    throw new RangeError(`${where}: claim.owner must be a non-empty string`);
  }
  if (!Number.isSafeInteger(claim.leaseMs) || claim.leaseMs < 1) {
    throw new RangeError(
      `${where}: claim.leaseMs must be a whole number of milliseconds >= 1, not ${String(claim.leaseMs)}`,
    );
  }
  if (fence !== undefined) {
    throw new RangeError(`${where}: a claim starts a new fence, so it states no fence`);
  }
}
