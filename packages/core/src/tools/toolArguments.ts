import { isDeepStrictEqual } from 'node:util';
import type { z } from 'zod';
import { ToolError } from '../errors/toolError.js';
import type { JsonObject, JsonValue } from '../support/json.js';
import {
  acceptsNull,
  formatPath,
  isObjectSchema,
  isRecord,
  resolve,
  type Path,
  type Schema,
} from './jsonSchemaWalk.js';
import { inputJsonSchema, strictify } from './strictJsonSchema.js';

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
      const result = await parseWith(schema, value);
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
 * zod's result for `value`: parsed synchronously, which most schemas allow and which costs a
 * fraction of zod's asynchronous parse; a schema with asynchronous refinements or transforms makes
 * the synchronous parse throw, and is then parsed asynchronously. A sync parse that throws for any
 * other reason throws the same way in the asynchronous one, so nothing is hidden.
 */
function parseWith<S extends z.ZodType>(
  schema: S,
  value: unknown,
): z.ZodSafeParseResult<z.output<S>> | Promise<z.ZodSafeParseResult<z.output<S>>> {
  try {
    return schema.safeParse(value);
  } catch {
    return schema.safeParseAsync(value);
  }
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
