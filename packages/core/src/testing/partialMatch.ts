/**
 * Where `actual` differs from the partial `expected`, as a path and a reason, or `undefined` when
 * it matches: every key `expected` names must match, keys it leaves out are not compared; arrays
 * match element by element and must have the same length; anything else must be equal.
 */
export function partialMismatch(
  expected: unknown,
  actual: unknown,
  path = '$',
): string | undefined {
  if (expected === actual) return undefined;
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `${path}: expected an array, got ${describe(actual)}`;
    if (actual.length !== expected.length) {
      return `${path}: expected ${expected.length} element(s), got ${actual.length}`;
    }
    for (const [index, item] of expected.entries()) {
      const problem = partialMismatch(item, actual[index], `${path}[${index}]`);
      if (problem !== undefined) return problem;
    }
    return undefined;
  }
  if (expected !== null && typeof expected === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) {
      return `${path}: expected an object, got ${describe(actual)}`;
    }
    for (const [key, value] of Object.entries(expected)) {
      if (value === undefined) {
        if ((actual as Record<string, unknown>)[key] !== undefined)
          return `${path}.${key}: expected no value, got ${describe((actual as Record<string, unknown>)[key])}`;
        continue;
      }
      const problem = partialMismatch(
        value,
        (actual as Record<string, unknown>)[key],
        `${path}.${key}`,
      );
      if (problem !== undefined) return problem;
    }
    return undefined;
  }
  return `${path}: expected ${describe(expected)}, got ${describe(actual)}`;
}

function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
