import { z } from 'zod';
import { AgentError } from '../errors/agentError.js';
import type { JsonObject } from '../support/json.js';
import {
  acceptsNull,
  isObjectSchema,
  isRecord,
  joinPath,
  NULL_SCHEMA,
  type Schema,
} from './jsonSchemaWalk.js';

/**
 * Converts a zod object schema into a JSON schema that OpenAI strict function calling accepts
 * (SPEC TOOL-1): every object is closed and requires all its keys, and a key that was optional
 * becomes nullable instead. Throws `AgentError('invalidConfiguration')` naming the tool otherwise.
 */
export function strictJsonSchema(schema: z.ZodType, toolName: string): JsonObject {
  return strictify(inputJsonSchema(schema, toolName), toolName);
}

function invalid(toolName: string, message: string, cause?: unknown): AgentError {
  return new AgentError('invalidConfiguration', `tool ${toolName}: ${message}`, { cause });
}

/** The input-side JSON schema of a zod object schema, or an error naming the tool. */
export function inputJsonSchema(schema: z.ZodType, toolName: string): Schema {
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

/** Tightens a JSON schema for OpenAI strict mode (closed objects, all keys required). */
export function strictify(root: Schema, toolName: string): JsonObject {
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
