// Helpers for walking the JSON schemas that zod produces, shared by the strict conversion and
// the argument parser.

/** A JSON schema node while we walk it: plain JSON from `z.toJSONSchema`, typed loosely. */
export type Schema = Record<string, unknown>;

/** Where a value sits in the arguments: object keys and array indexes from the top. */
export type Path = readonly PropertyKey[];

/** The schema of `null`, added to optional keys in strict mode. */
export const NULL_SCHEMA: Schema = { type: 'null' };

/** How many `$ref`s a walk follows before it gives up (recursive schemas). */
export const MAX_REF_HOPS = 32;

/** Whether the schema itself admits `null`; without `root`, a `$ref` counts as no. */
export function acceptsNull(schema: unknown, root: Schema | undefined, hops = 0): boolean {
  if (schema === true) return true;
  if (!isRecord(schema)) return false;
  if (typeof schema.$ref === 'string') {
    const target = root === undefined ? undefined : resolve(schema, root);
    return target !== undefined && hops < MAX_REF_HOPS && acceptsNull(target, root, hops + 1);
  }
  if ('const' in schema) return schema.const === null;
  if (Array.isArray(schema.enum)) return schema.enum.includes(null);
  const branches = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(branches)) return branches.some((branch) => acceptsNull(branch, root, hops));
  if (schema.type === undefined) return true;
  return schema.type === 'null' || (Array.isArray(schema.type) && schema.type.includes('null'));
}

/** Follows local `$ref`s (`#` and `#/$defs/...`, what zod emits for recursion and ids). */
export function resolve(schema: unknown, root: Schema): Schema | undefined {
  let node = schema;
  for (let hops = 0; hops < MAX_REF_HOPS; hops++) {
    if (!isRecord(node)) return undefined;
    if (typeof node.$ref !== 'string') return node;
    if (!node.$ref.startsWith('#')) return undefined;
    let target: unknown = root;
    for (const part of node.$ref
      .slice(1)
      .split('/')
      .filter((p) => p !== '')) {
      const key = decodeURIComponent(part).replaceAll('~1', '/').replaceAll('~0', '~');
      target = isRecord(target) ? target[key] : undefined;
    }
    node = target;
  }
  return undefined;
}

/** `$`, `$.items[0].sku`, `$["odd key"]`: what error messages use to name a place in the args. */
export function formatPath(path: Path): string {
  return path.reduce<string>(
    (text, segment) =>
      typeof segment === 'number' ? `${text}[${segment}]` : joinPath(text, String(segment)),
    '$',
  );
}

/** Appends an object key to a printed path, quoting keys that are not identifiers. */
export function joinPath(path: string, key: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(key)
    ? `${path}.${key}`
    : `${path}[${JSON.stringify(key)}]`;
}

/** True for a schema of JSON objects. */
export function isObjectSchema(node: Schema): boolean {
  const { type } = node;
  return (
    type === 'object' ||
    (Array.isArray(type) && type.includes('object')) ||
    isRecord(node.properties)
  );
}

/** True for a plain object (not null, not an array). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
