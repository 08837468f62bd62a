/** The median, minimum and maximum of a set of measurements. */
export interface Summary {
  readonly median: number;
  readonly min: number;
  readonly max: number;
  readonly count: number;
}

/** Summarises `values` (at least one); the median of an even count is the mean of the middle two. */
export function summarise(values: readonly number[]): Summary {
  if (values.length === 0) throw new Error('summarise: no values');
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const median =
    sorted.length % 2 === 1
      ? (sorted[middle] ?? 0)
      : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
  return { median, min: sorted[0] ?? 0, max: sorted.at(-1) ?? 0, count: sorted.length };
}
