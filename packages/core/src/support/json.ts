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
  if (typeof value === 'object' && value !== null && parsedJson.has(value)) return undefined;
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

// Values that JSON.parse made and no caller has held since: plain JSON by construction, so the
// store that receives them need not walk them again.
const parsedJson = new WeakSet<object>();

/**
 * A deep copy through the text form, as a store hands a value back. The copy is known to be
 * plain JSON, so `findNonJson` answers for it at once; it must not be handed to code that could
 * change it before it is stored.
 */
export function parsedCopy<T>(value: T): T {
  return markParsedJson(JSON.parse(JSON.stringify(value)) as T);
}

/**
 * Marks a value that `JSON.parse` just made as plain JSON, so that appending
 * it again (a fork copies events) does not walk it to check. Mark only a value fresh from
 * `JSON.parse`; if a caller later puts something that is not JSON into it, `JSON.stringify`
 * decides what is stored.
 */
export function markParsedJson<T>(value: T): T {
  if (typeof value === 'object' && value !== null) parsedJson.add(value);
  return value;
}

/** Serialises with object keys sorted, so equal values always give the same text. */
export function canonicalJson(value: unknown): string {
  // Plain JSON is written directly, with no sorted copy in between; the same text either way.
  return plainCanonical(value, 0) ?? JSON.stringify(sortKeys(value));
}

/** `canonicalJson` of plain JSON, or `undefined` when the value needs the general path. */
function plainCanonical(value: unknown, depth: number): string | undefined {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    return JSON.stringify(value);
  if (value === null) return 'null';
  if (typeof value !== 'object' || depth > 64) return undefined;
  if (Array.isArray(value)) {
    let text = '[';
    for (let index = 0; index < value.length; index += 1) {
      const item = plainCanonical(value[index], depth + 1);
      if (item === undefined) return undefined;
      text += index === 0 ? item : `,${item}`;
    }
    return `${text}]`;
  }
  if (Object.getPrototypeOf(value) !== Object.prototype) return undefined;
  const keys = sortedKeys(value);
  let text = '{';
  for (let index = 0; index < keys.length; index += 1) {
    const key = keys[index] as string;
    const item: unknown = (value as Record<string, unknown>)[key];
    if (item === undefined) continue;
    if (key === 'toJSON') return undefined;
    const written = plainCanonical(item, depth + 1);
    if (written === undefined) return undefined;
    text += `${text.length === 1 ? '' : ','}${quotedKey(key)}${written}`;
  }
  return `${text}}`;
}

/**
 * The keys of `value` in code-unit order; sorted only when they are not in order already, and in
 * place by insertion when there are few (a message has a handful: `Array.prototype.sort` would
 * allocate its work space for each).
 */
function sortedKeys(value: object): string[] {
  const keys = Object.keys(value);
  for (let index = 1; index < keys.length; index += 1) {
    if ((keys[index - 1] as string) <= (keys[index] as string)) continue;
    if (keys.length > 16) return keys.sort();
    for (let next = index; next < keys.length; next += 1) {
      const key = keys[next] as string;
      let to = next;
      for (; to > 0 && (keys[to - 1] as string) > key; to -= 1) keys[to] = keys[to - 1] as string;
      keys[to] = key;
    }
    return keys;
  }
  return keys;
}

// Keys as JSON writes them, with their colon: the same few keys recur in every message. Bounded,
// since keys come from callers' data too.
const quotedKeys = new Map<string, string>();
const maxQuotedKeys = 1_024;

function quotedKey(key: string): string {
  let quoted = quotedKeys.get(key);
  if (quoted === undefined) {
    quoted = `${JSON.stringify(key)}:`;
    if (quotedKeys.size < maxQuotedKeys) quotedKeys.set(key, quoted);
  }
  return quoted;
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
