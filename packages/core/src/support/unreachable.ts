/**
 * Marks the end of a `switch` that handles every member of a union: `value` is `never` there, so a
 * member added to the union without its case fails `tsc` (no `default:` hides it). At run time it
 * throws, naming what was not handled.
 */
export function unreachable(value: never, what: string): never {
  throw new Error(`unhandled ${what}: ${JSON.stringify(value)}`);
}
