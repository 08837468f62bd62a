/** The coarsest step an append's lease end is rounded down to: one second. */
const maxLeaseStepMs = 1_000;

/**
 * When the lease an append writes ends (SPEC WRK-4): `leaseMs` from `now`, rounded down to a step
 * of a hundredth of the lease, one second at most. Never longer than `leaseMs`; shorter by less
 * than a step: it errs towards a lease ending early, never late, as PostgreSQL's `now()` does.
 * Appends of a run within one step write the same end, so the work index's upsert, which leaves
 * a row that already says what the entry says as it is, does not rewrite the row and its lease
 * index at every commit (on a 5-minute lease: at most once a second).
 */
export function appendedLeaseEnd(now: number, leaseMs: number): number {
  const step = Math.min(maxLeaseStepMs, Math.floor(leaseMs / 100));
  const end = now + leaseMs;
  return step <= 1 ? end : end - (end % step);
}
