import { findNonJson, type JsonValue } from './json.js';

/**
 * A runtime check of a value's shape: returns what is wrong (with the path of the part that is
 * wrong) or `undefined`. It validates without rebuilding the value, so checking a parsed event
 * costs a walk of its fields and no allocation. `T` is the shape it guarantees.
 */
export interface Check<T> {
  (value: unknown, path: string): string | undefined;
  /** Never set: carries `T` for `Checked`. */
  readonly __type?: T;
  /** Set on checks made by `optional`: the key may be absent. */
  readonly optional?: true;
}

/** The type a check guarantees. */
export type Checked<C> = C extends Check<infer T> ? T : never;

type Shape = Record<string, Check<unknown>>;
type OptionalKeys<S extends Shape> = {
  [K in keyof S]: S[K] extends { readonly optional: true } ? K : never;
}[keyof S];

/** The object type a shape of checks guarantees: optional checks give optional keys. */
export type ShapeOf<S extends Shape> = {
  readonly [K in Exclude<keyof S, OptionalKeys<S>>]: Checked<S[K]>;
} & { readonly [K in OptionalKeys<S>]?: Checked<S[K]> };

const at = (path: string, problem: string) => `${path === '' ? 'data' : path}: ${problem}`;

/**
 * The path a check is given when only whether the value passes matters: its parts get the same
 * path, so a passing check builds no path strings. A check of a whole value (path `''`) runs this
 * way first, and again with real paths only to describe what failed.
 */
const unnamed = '\u0000';

/** The path of `key` inside `path`. */
const child = (path: string, key: string): string =>
  path === unnamed ? unnamed : path === '' ? key : `${path}.${key}`;
const got = (value: unknown) =>
  value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value;

/** A string. */
export const string: Check<string> = (value, path) =>
  typeof value === 'string' ? undefined : at(path, `expected a string, got ${got(value)}`);

/** A finite number. */
export const number: Check<number> = (value, path) =>
  typeof value === 'number' && Number.isFinite(value)
    ? undefined
    : at(path, `expected a number, got ${got(value)}`);

/** A boolean. */
export const boolean: Check<boolean> = (value, path) =>
  typeof value === 'boolean' ? undefined : at(path, `expected a boolean, got ${got(value)}`);

/** Any JSON value. */
export const json: Check<JsonValue> = (value, path) => {
  if (value === undefined) return at(path, 'expected a JSON value, got undefined');
  const problem = findNonJson(value, path === '' ? 'data' : path);
  return problem === undefined ? undefined : `${problem} is not JSON`;
};

/** A whole number of at least `min`. */
export function integer(min: number): Check<number> {
  return (value, path) =>
    typeof value === 'number' && Number.isInteger(value) && value >= min
      ? undefined
      : at(path, `expected a whole number of at least ${min}, got ${String(value)}`);
}

/** One of the given strings. */
export function oneOf<const L extends string>(values: readonly L[]): Check<L> {
  const allowed = new Set<string>(values);
  return (value, path) =>
    typeof value === 'string' && allowed.has(value)
      ? undefined
      : at(
          path,
          `expected one of ${values.join(', ')}, got ${JSON.stringify(value) ?? 'undefined'}`,
        );
}

/** The key may be absent (or `undefined`); when present, `check` applies. */
export function optional<T>(check: Check<T>): Check<T> & { readonly optional: true } {
  const wrapped = (value: unknown, path: string) =>
    value === undefined ? undefined : check(value, path);
  return Object.assign(wrapped, { optional: true as const });
}

/** An array whose items pass `item`. */
export function arrayOf<T>(item: Check<T>): Check<readonly T[]> {
  return (value, path) => {
    if (!Array.isArray(value)) return at(path, `expected an array, got ${got(value)}`);
    for (let index = 0; index < value.length; index += 1) {
      const problem = item(value[index], path === unnamed ? unnamed : `${path}[${index}]`);
      if (problem !== undefined) return problem;
    }
    return undefined;
  };
}

/** An object with these keys; keys beyond them are kept, as a store keeps them. */
export function object<S extends Shape>(shape: S): Check<ShapeOf<S>> {
  const entries = Object.entries(shape);
  const checkObject = (value: unknown, path: string) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value))
      return at(path, `expected an object, got ${got(value)}`);
    for (const [key, check] of entries) {
      const problem = check((value as Record<string, unknown>)[key], child(path, key));
      if (problem !== undefined) return problem;
    }
    return undefined;
  };
  return (value, path) =>
    path === '' && checkObject(value, unnamed) === undefined ? undefined : checkObject(value, path);
}

/** One of several object shapes, told apart by the string in `key`. */
export function tagged<K extends string, const V extends Record<string, Check<object>>>(
  key: K,
  variants: V,
): Check<{ [T in keyof V]: Checked<V[T]> & { readonly [P in K]: T } }[keyof V]> {
  const names = Object.keys(variants);
  return (value, path) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value))
      return at(path, `expected an object, got ${got(value)}`);
    const tag = (value as Record<string, unknown>)[key];
    const variant =
      typeof tag === 'string' && Object.hasOwn(variants, tag) ? variants[tag] : undefined;
    if (variant === undefined) {
      const where = child(path, key);
      return at(
        where,
        `expected one of ${names.join(', ')}, got ${JSON.stringify(tag) ?? 'undefined'}`,
      );
    }
    return variant(value, path);
  };
}

/**
 * One of two object shapes, told apart by the boolean in `key` (`tagged` takes strings only):
 * `ifTrue` applies when it is `true`, `ifFalse` when it is `false`.
 */
export function flagged<K extends string, T extends object, F extends object>(
  key: K,
  ifTrue: Check<T>,
  ifFalse: Check<F>,
): Check<(T & { readonly [P in K]: true }) | (F & { readonly [P in K]: false })> {
  return (value, path) => {
    if (value === null || typeof value !== 'object' || Array.isArray(value))
      return at(path, `expected an object, got ${got(value)}`);
    const flag = (value as Record<string, unknown>)[key];
    if (flag === true) return ifTrue(value, path);
    if (flag === false) return ifFalse(value, path);
    return at(child(path, key), `expected a boolean, got ${got(flag)}`);
  };
}

/**
 * `T` with intersections flattened, all the way down, so that two ways of writing one shape
 * compare equal; `readonly` and `?` are kept, so a difference in them still shows. A part that is
 * `JsonValue` stays as it is (it is recursive).
 */
export type Flat<T> = [T] extends [JsonValue]
  ? [JsonValue] extends [T]
    ? T
    : FlatEach<T>
  : FlatEach<T>;
type FlatEach<T> = T extends object ? { [K in keyof T]: Flat<T[K]> } : T;

/**
 * `true` when `A` and `B` are the same type once flattened: each has every field of the other,
 * with the same type, `readonly` and `?`. Ties a TypeScript type to the check written for it.
 */
export type SameShape<A, B> =
  (<G>() => G extends Flat<A> ? 1 : 2) extends <G>() => G extends Flat<B> ? 1 : 2 ? true : false;
