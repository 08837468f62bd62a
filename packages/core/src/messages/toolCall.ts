import { createHash } from 'node:crypto';
import { canonicalJson } from '../support/json.js';

/**
 * One tool call of an assistant message (SPEC MSG-2). `args` is the JSON text the model sent;
 * a JSON object is stored in canonical form, anything else as it came, and it may be absent.
 */
export interface ToolCall {
  readonly id: string;
  readonly name: string;
  readonly args?: string;
}

/**
 * Canonicalises tool-call arguments once, on arrival (SPEC MSG-2): a JSON object is re-serialised
 * with sorted keys (a repeated key keeps its last value); other text is kept as it is.
 */
export function canonicalArgs(args: string | undefined): string | undefined {
  if (args === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(args);
  } catch {
    return args;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return args;
  return canonicalJson(parsed);
}

/** The key under which failures of a call are counted (SPEC TOOL-3): tool name plus canonical args. */
export function toolCallHash(toolCall: ToolCall): string {
  return createHash('sha256')
    .update(JSON.stringify([toolCall.name, toolCall.args ?? null]))
    .digest('hex')
    .slice(0, 32);
}
