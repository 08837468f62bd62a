/** Thrown by `frozenJsonCopy`: `where` names the first part of the value that is not JSON. */
export class NotJsonError extends Error {
  constructor(readonly where: string) {
    super(`${where} is not JSON`);
  }
}

/**
 * A deep copy of plain JSON data, frozen, in one walk: the value a `JSON.stringify` and
 * `JSON.parse` round trip gives (properties whose value is `undefined` dropped, `-0` as `0`). It
 * throws `NotJsonError` naming the
 * first part that is not JSON as `findNonJson` does (`$.a[0] (function)`): a function, `undefined`
 * in an array, a non-finite number, a `bigint`, a class instance, a cycle or nesting deeper than
 * 1,000 levels (then named at `$`).
 *
 * Frozen, the copy can be shared by the event, the state that folds it and the stream's
 * subscribers: nobody can change an event after it was checked.
 */
export function frozenJsonCopy<T>(value: T): T {
  try {
    return copy(value, 0) as T;
  } catch (error) {
    if (!(error instanceof PathError)) throw error;
    throw new NotJsonError(`$${error.segments.reverse().join('')} (${error.what})`);
  }
}

/** Where the walk stopped, built on the way back up so that a valid value builds no paths. */
class PathError extends Error {
  readonly segments: string[] = [];
  constructor(readonly what: string) {
    super(what);
  }
}

const maxDepth = 1_000;
const TOO_DEEP = 'cyclic or too deeply nested';

function copy(value: unknown, depth: number): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      if (!Number.isFinite(value)) throw new PathError(String(value));
      return value === 0 ? 0 : value;
    case 'object':
      if (value === null) return null;
      if (depth >= maxDepth) throw new PathError(TOO_DEEP);
      return Array.isArray(value) ? copyArray(value, depth) : copyObject(value, depth);
    case 'bigint':
    case 'function':
    case 'symbol':
    case 'undefined':
      throw new PathError(typeof value);
  }
}

function copyArray(value: readonly unknown[], depth: number): readonly unknown[] {
  const items = new Array<unknown>(value.length);
  for (let index = 0; index < value.length; index += 1) {
    const item: unknown = value[index];
    try {
      if (item === undefined) throw new PathError('undefined');
      items[index] = copy(item, depth + 1);
    } catch (error) {
      if (error instanceof PathError && error.what !== TOO_DEEP) error.segments.push(`[${index}]`);
      throw error;
    }
  }
  return Object.freeze(items);
}

function copyObject(value: object, depth: number): object {
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) {
    const name = (value as { constructor?: { name?: string } }).constructor?.name ?? 'object';
    throw new PathError(`a ${name}, not a plain object`);
  }
  const result: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const item: unknown = (value as Record<string, unknown>)[key];
    if (item === undefined) continue;
    let copied: unknown;
    try {
      copied = copy(item, depth + 1);
    } catch (error) {
      if (error instanceof PathError && error.what !== TOO_DEEP) error.segments.push(`.${key}`);
      throw error;
    }
    // `__proto__` is an own property of a parsed object, not its prototype.
    if (key === '__proto__')
      Object.defineProperty(result, key, {
        value: copied,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    else result[key] = copied;
  }
  return Object.freeze(result);
}
