/** A value that survives `JSON.stringify`/`JSON.parse` unchanged: what events may carry. */
export type JsonValue =
  null | boolean | number | string | readonly JsonValue[] | { readonly [key: string]: JsonValue };

/** A JSON object, the shape of tool arguments and most payloads. */
export type JsonObject = { readonly [key: string]: JsonValue };

/**
 * Returns the path of the first part of `value` that is not plain JSON (a function, `undefined`
 * inside an array, a non-finite number, a `bigint`, a class instance such as `Date` or `Map`), or
 * `undefined` when all of it is JSON. Object properties whose value is `undefined` are allowed:
 * JSON drops them.
 */
export function findNonJson(value: unknown, path = '$'): string | undefined {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return undefined;
    case 'number':
      return Number.isFinite(value) ? undefined : `${path} (${String(value)})`;
    case 'object': {
      if (value === null) return undefined;
      if (Array.isArray(value)) {
        for (const [index, item] of value.entries()) {
          if (item === undefined) return `${path}[${index}] (undefined)`;
          const found = findNonJson(item, `${path}[${index}]`);
          if (found !== undefined) return found;
        }
        return undefined;
      }
      const proto: unknown = Object.getPrototypeOf(value);
      if (proto !== Object.prototype && proto !== null) {
        const name = (value as { constructor?: { name?: string } }).constructor?.name ?? 'object';
        return `${path} (a ${name}, not a plain object)`;
      }
      for (const [key, item] of Object.entries(value)) {
        if (item === undefined) continue;
        const found = findNonJson(item, `${path}.${key}`);
        if (found !== undefined) return found;
      }
      return undefined;
    }
    case 'bigint':
    case 'function':
    case 'symbol':
    case 'undefined':
      return `${path} (${typeof value})`;
  }
}

/** Serialises with object keys sorted, so equal values always give the same text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(entries.map(([key, item]) => [key, sortKeys(item)]));
  }
  return value;
}

/**
 * Copies a value as a store would hand it back after a JSON round trip (object properties whose
 * value is `undefined` dropped), in one pass and without the text form, or returns the path of
 * the first part that is not plain JSON (as `findNonJson` names it, or a cycle).
 */
export function jsonCopy(
  value: unknown,
): { ok: true; value: unknown } | { ok: false; path: string } {
  const failure: { path?: string } = {};
  const copied = copyJson(value, '$', [], failure);
  return failure.path === undefined
    ? { ok: true, value: copied }
    : { ok: false, path: failure.path };
}

function copyJson(
  value: unknown,
  path: string,
  ancestors: object[],
  failure: { path?: string },
): unknown {
  if (typeof value !== 'object' || value === null) {
    const problem = findNonJson(value, path);
    if (problem !== undefined) failure.path = problem;
    // JSON has no negative zero: a round trip turns it into 0.
    return value === 0 ? 0 : value;
  }
  if (ancestors.includes(value)) {
    failure.path = `${path} (a cycle)`;
    return undefined;
  }
  ancestors.push(value);
  try {
    if (Array.isArray(value)) {
      const copy: unknown[] = new Array<unknown>(value.length);
      for (let index = 0; index < value.length && failure.path === undefined; index += 1) {
        const item: unknown = value[index];
        if (item === undefined) failure.path = `${path}[${index}] (undefined)`;
        else copy[index] = copyJson(item, `${path}[${index}]`, ancestors, failure);
      }
      return copy;
    }
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) {
      failure.path = findNonJson(value, path) ?? `${path} (not a plain object)`;
      return undefined;
    }
    const copy: Record<string, unknown> = {};
    for (const key of Object.keys(value)) {
      const item = (value as Record<string, unknown>)[key];
      if (item === undefined) continue;
      const copied = copyJson(item, `${path}.${key}`, ancestors, failure);
      // An own "__proto__" key, as JSON.parse makes it, not a prototype change.
      if (key === '__proto__')
        Object.defineProperty(copy, key, {
          value: copied,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      else copy[key] = copied;
      if (failure.path !== undefined) break;
    }
    return copy;
  } finally {
    ancestors.pop();
  }
}

/**
 * Deep-copies a JSON value as `jsonCopy` does; throws a `TypeError` naming the first part that is
 * not JSON. Faster than a round trip through the text form, with the same result.
 */
export function jsonClone<T>(value: T): T {
  const copied = jsonCopy(value);
  if (!copied.ok) throw new TypeError(`${copied.path} is not JSON`);
  return copied.value as T;
}

/** Deep-copies a JSON value through its text form: what a store hands back after a round trip. */
export function jsonRoundTrip<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
