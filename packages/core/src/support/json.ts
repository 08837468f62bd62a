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

/** Deep-copies a JSON value through its text form: what a store hands back after a round trip. */
export function jsonRoundTrip<T>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}
