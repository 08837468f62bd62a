import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import { AgentError } from '../errors/agentError.js';
import { ToolError } from '../errors/toolError.js';
import type { JsonObject, JsonValue } from '../support/json.js';

/** A JSON schema node while we walk it: plain JSON from `z.toJSONSchema`, typed loosely. */
type Schema = Record<string, unknown>;
type Path = readonly PropertyKey[];

const NULL_SCHEMA: Schema = { type: 'null' };
const MAX_REF_HOPS = 32;

/**
 * Converts a zod object schema into a JSON schema that OpenAI strict function calling accepts
 * (SPEC TOOL-1): every object is closed and requires all its keys, and a key that was optional
 * becomes nullable instead. Throws `AgentError('invalidConfiguration')` naming the tool otherwise.
 */
export function strictJsonSchema(schema: z.ZodType, toolName: string): JsonObject {
  return strictify(inputJsonSchema(schema, toolName), toolName);
}

/** A tool's arguments compiled once: the strict schema the model sees and the parser that matches it. */
export interface ToolArguments<T> {
  /** The strict JSON schema, as `strictJsonSchema` returns it. */
  readonly parameters: JsonObject;
  /** Parses the model's argument text; rejects with `ToolError.wrongArguments` naming each problem. */
  parse(args: string | undefined): Promise<T>;
}

/**
 * Compiles a zod object schema into its strict spec and an argument parser (SPEC TOOL-1, TOOL-5).
 * The parser treats absent or blank args as `{}`, rejects keys the schema does not name at any
 * depth, reads `null` in a key that was optional (and not nullable) as "absent", then runs zod.
 */
export function toolArguments<S extends z.ZodType>(
  schema: S,
  toolName: string,
): ToolArguments<z.output<S>> {
  const input = inputJsonSchema(schema, toolName);
  const parameters = strictify(input, toolName);
  return {
    parameters,
    async parse(args) {
      const raw = args === undefined || args.trim() === '' ? {} : parseJsonArgs(args, toolName);
      const unknownKeys: Path[] = [];
      const value = normalize(raw, input, [], { root: input, unknownKeys });
      // Async so that schemas with async refinements work too; invoke is async anyway.
      const result = await schema.safeParseAsync(value);
      if (result.success && unknownKeys.length === 0) return result.data;
      const reported = new Set(unknownKeys.map(formatPath));
      const problems = [
        ...unknownKeys.map((path) => `${formatPath(path)}: unexpected key`),
        ...(result.success ? [] : describeIssues(result.error.issues, [], reported)),
      ];
      throw ToolError.wrongArguments(
        `tool ${toolName}: arguments do not match the schema: ${problems.join('; ')}`,
      );
    },
  };
}

/**
 * Parses argument text as JSON (SPEC TOOL-5, STOP-5); text that is not JSON throws
 * `ToolError.wrongArguments` naming the tool and the parser's complaint.
 */
export function parseJsonArgs(args: string, toolName: string): JsonValue {
  try {
    return JSON.parse(args) as JsonValue;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw ToolError.wrongArguments(`tool ${toolName}: arguments are not valid JSON: ${reason}`);
  }
}

function invalid(toolName: string, message: string, cause?: unknown): AgentError {
  return new AgentError('invalidConfiguration', `tool ${toolName}: ${message}`, { cause });
}

function inputJsonSchema(schema: z.ZodType, toolName: string): Schema {
  let json: Schema;
  try {
    // The model writes the input side; what a transform makes of it is the tool's business.
    json = { ...(z.toJSONSchema(schema, { io: 'input' }) as Schema) };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw invalid(toolName, `parameters cannot be expressed as JSON schema: ${reason}`, error);
  }
  delete json.$schema;
  if (json.type !== 'object') throw invalid(toolName, 'parameters must be a z.object(...)');
  return json;
}

function strictify(root: Schema, toolName: string): JsonObject {
  return strictNode(root, '$', toolName) as JsonObject;
}

function strictNode(node: unknown, path: string, toolName: string): unknown {
  // Boolean schemas (a tuple's `items: false`) have nothing to tighten.
  if (!isRecord(node)) return node;
  const fail = (why: string): never => {
    throw invalid(toolName, `${path} ${why}`);
  };
  if (node.allOf !== undefined) {
    fail('is an intersection (allOf), which strict function calling does not accept');
  }
  if (!['type', 'anyOf', 'oneOf', '$ref', 'enum', 'const'].some((key) => key in node)) {
    fail('has no JSON type (z.any() or z.unknown()?); strict function calling needs one');
  }
  const out: Schema = { ...node };
  // Strict mode knows anyOf only; zod validates exclusivity itself.
  if (Array.isArray(out.oneOf)) {
    out.anyOf = out.oneOf;
    delete out.oneOf;
  }
  if (Array.isArray(out.anyOf))
    out.anyOf = out.anyOf.map((branch) => strictNode(branch, path, toolName));
  if (isRecord(out.items)) out.items = strictNode(out.items, `${path}[]`, toolName);
  if (Array.isArray(out.prefixItems)) {
    out.prefixItems = out.prefixItems.map((item, i) => strictNode(item, `${path}[${i}]`, toolName));
  }
  if (isRecord(out.$defs)) {
    const defs = Object.entries(out.$defs);
    out.$defs = Object.fromEntries(
      defs.map(([name, def]) => [name, strictNode(def, `#/$defs/${name}`, toolName)]),
    );
  }
  if (isObjectSchema(out)) {
    if (out.additionalProperties !== undefined && out.additionalProperties !== false) {
      fail(
        'accepts keys it does not name (z.record(), z.looseObject() or .catchall()), ' +
          'which strict function calling cannot express',
      );
    }
    const properties = isRecord(out.properties) ? out.properties : {};
    const required = new Set(Array.isArray(out.required) ? out.required : []);
    out.properties = Object.fromEntries(
      Object.entries(properties).map(([key, property]) => {
        const strict = strictNode(property, joinPath(path, key), toolName);
        return [key, required.has(key) ? strict : nullable(strict)];
      }),
    );
    out.required = Object.keys(properties);
    out.additionalProperties = false;
  }
  return out;
}

/** Strict mode has no optional keys, so "may be absent" is spelled "may be null". */
function nullable(node: unknown): unknown {
  if (!isRecord(node) || acceptsNull(node, undefined)) return node;
  const plain = node.enum === undefined && node.const === undefined && node.$ref === undefined;
  if (plain && typeof node.type === 'string') return { ...node, type: [node.type, 'null'] };
  if (plain && Array.isArray(node.type))
    return { ...node, type: [...(node.type as unknown[]), 'null'] };
  if (plain && Array.isArray(node.anyOf)) {
    return { ...node, anyOf: [...(node.anyOf as unknown[]), NULL_SCHEMA] };
  }
  // An enum, const or $ref would reject null next to `type: [..., 'null']`, so wrap it instead.
  const { description, ...rest } = node;
  return description === undefined
    ? { anyOf: [rest, NULL_SCHEMA] }
    : { description, anyOf: [rest, NULL_SCHEMA] };
}

interface Walk {
  readonly root: Schema;
  readonly unknownKeys: Path[];
}

/**
 * Walks the value along the original (not strict) schema: drops `null` from optional keys, so the
 * zod schema sees them absent, and records keys the schema does not name, which zod would strip.
 */
function normalize(value: unknown, schema: unknown, path: Path, walk: Walk): unknown {
  const node = resolve(schema, walk.root);
  if (node === undefined) return value;
  const branches = node.anyOf ?? node.oneOf;
  if (Array.isArray(branches)) {
    const branch = pickBranch(value, branches, walk.root);
    return branch === undefined ? value : normalize(value, branch, path, walk);
  }
  if (Array.isArray(value)) {
    const prefix = Array.isArray(node.prefixItems) ? node.prefixItems : [];
    return value.map((item, i) =>
      normalize(item, i < prefix.length ? prefix[i] : node.items, [...path, i], walk),
    );
  }
  if (!isRecord(value) || !isObjectSchema(node)) return value;
  const properties = isRecord(node.properties) ? node.properties : {};
  const required = Array.isArray(node.required) ? node.required : [];
  const entries: [string, unknown][] = [];
  for (const [key, item] of Object.entries(value)) {
    const keyPath = [...path, key];
    if (Object.hasOwn(properties, key)) {
      const property = properties[key];
      if (item === null && !required.includes(key) && !acceptsNull(property, walk.root)) continue;
      entries.push([key, normalize(item, property, keyPath, walk)]);
    } else if (isRecord(node.additionalProperties) || node.additionalProperties === true) {
      entries.push([key, normalize(item, node.additionalProperties, keyPath, walk)]);
    } else {
      walk.unknownKeys.push(keyPath);
      entries.push([key, item]);
    }
  }
  // fromEntries, not assignment, so a key named __proto__ stays a plain key.
  return Object.fromEntries(entries);
}

/**
 * The union branch the value most likely means: its JSON type fits, then fewest mismatched
 * discriminators, missing required keys and unknown keys. Decides which keys count as optional.
 */
function pickBranch(value: unknown, branches: readonly unknown[], root: Schema): unknown {
  let best: Schema | undefined;
  let bestScore = Infinity;
  for (const branch of branches) {
    const node = resolve(branch, root);
    if (node === undefined || !typeFits(value, node)) continue;
    const score = mismatchScore(value, node, root);
    if (score < bestScore) {
      best = node;
      bestScore = score;
    }
  }
  return best;
}

function mismatchScore(value: unknown, node: Schema, root: Schema): number {
  if (!isRecord(value) || !isObjectSchema(node)) return 0;
  const properties = isRecord(node.properties) ? node.properties : {};
  let score = 0;
  for (const [key, property] of Object.entries(properties)) {
    const resolved = resolve(property, root);
    const discriminates = resolved !== undefined && 'const' in resolved && key in value;
    if (discriminates && !isDeepStrictEqual(resolved.const, value[key])) {
      score += 1000;
    }
  }
  const required = Array.isArray(node.required) ? node.required : [];
  score += required.filter((key) => typeof key === 'string' && !(key in value)).length;
  const probe: Walk = { root, unknownKeys: [] };
  normalize(value, node, [], probe);
  return score + probe.unknownKeys.length;
}

function typeFits(value: unknown, node: Schema): boolean {
  if ('const' in node) return isDeepStrictEqual(node.const, value);
  if (Array.isArray(node.enum)) return node.enum.some((option) => isDeepStrictEqual(option, value));
  const types = typeof node.type === 'string' ? [node.type] : node.type;
  if (!Array.isArray(types)) return true;
  const actual = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  return types.some(
    (type) =>
      type === actual ||
      (type === 'integer' && Number.isInteger(value)) ||
      (type === 'number' && actual === 'number'),
  );
}

/** Whether the schema itself admits `null`; without `root`, a `$ref` counts as no. */
function acceptsNull(schema: unknown, root: Schema | undefined, hops = 0): boolean {
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
function resolve(schema: unknown, root: Schema): Schema | undefined {
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

function describeIssues(
  issues: readonly z.core.$ZodIssue[],
  prefix: Path,
  reported: ReadonlySet<string>,
): string[] {
  const lines: string[] = [];
  for (const issue of issues) {
    const path = [...prefix, ...issue.path];
    if (issue.code === 'unrecognized_keys') {
      // Our own walk already named these keys, with their full path.
      if (issue.keys.every((key) => reported.has(formatPath([...path, key])))) continue;
    }
    if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      const forms = issue.errors.map((branch) => describeIssues(branch, path, reported).join(', '));
      lines.push(`${formatPath(path)}: matches none of the allowed forms (${forms.join(' | ')})`);
      continue;
    }
    lines.push(`${formatPath(path)}: ${issue.message}`);
  }
  return lines;
}

/** `$`, `$.items[0].sku`, `$["odd key"]`: what error messages use to name a place in the args. */
function formatPath(path: Path): string {
  return path.reduce<string>(
    (text, segment) =>
      typeof segment === 'number' ? `${text}[${segment}]` : joinPath(text, String(segment)),
    '$',
  );
}

function joinPath(path: string, key: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(key)
    ? `${path}.${key}`
    : `${path}[${JSON.stringify(key)}]`;
}

function isObjectSchema(node: Schema): boolean {
  const { type } = node;
  return (
    type === 'object' ||
    (Array.isArray(type) && type.includes('object')) ||
    isRecord(node.properties)
  );
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
