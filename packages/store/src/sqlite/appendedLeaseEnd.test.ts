import { describe, expect, it } from 'vitest';
import { appendedLeaseEnd } from './appendedLeaseEnd.js';

describe('appendedLeaseEnd', () => {
  it('WRK-4 an append lease is never longer than leaseMs, and shorter by less than a hundredth of it, one second at most', () => {
    for (const leaseMs of [1, 50, 300, 60_000, 300_000, 3_600_000]) {
      const step = Math.min(1_000, Math.max(1, Math.floor(leaseMs / 100)));
      for (const now of [0, 1, 999, 1_234_567, 1_764_650_000_123]) {
        const end = appendedLeaseEnd(now, leaseMs);
        expect(end).toBeLessThanOrEqual(now + leaseMs);
        expect(end).toBeGreaterThan(now + leaseMs - step);
      }
    }
  });

  it('WRK-4 appends within one step of a 5-minute lease write the same lease end', () => {
    const ends = new Set(
      [0, 1, 250, 999].map((offset) => appendedLeaseEnd(1_764_650_000_000 + offset, 300_000)),
    );
    expect(ends.size).toBe(1);
  });
});
