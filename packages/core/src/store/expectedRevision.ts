import type { ExpectedRevision } from '../ports/eventStore.js';

/** True when a stream at `actual` meets the expectation `expected` of an append. */
export function satisfiesExpectedRevision(
  expected: ExpectedRevision,
  actual: number | 'noStream',
): boolean {
  switch (expected) {
    case 'any':
      return true;
    case 'noStream':
      return actual === 'noStream';
    case 'streamExists':
      return actual !== 'noStream';
    default:
      return actual === expected;
  }
}

/**
 * Throws a `RangeError` unless `expected` is a revision (an integer >= 0), `'noStream'`,
 * `'streamExists'` or `'any'`. Every store adapter checks appends with it.
 */
export function assertValidExpectedRevision(
  expected: unknown,
): asserts expected is ExpectedRevision {
  if (expected === 'any' || expected === 'noStream' || expected === 'streamExists') return;
  if (typeof expected === 'number' && Number.isSafeInteger(expected) && expected >= 0) return;
  throw new RangeError(
    `expectedRevision must be a revision (an integer >= 0), 'noStream', 'streamExists' or 'any', not ${String(expected)}`,
  );
}

/** Throws a `RangeError` unless the read option `name` is absent or an integer >= 0. */
export function assertRevisionOption(name: string, value: number | undefined): void {
  if (value === undefined) return;
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${name} must be an integer >= 0, not ${String(value)}`);
  }
}
