import type { JsonValue } from '../support/json.js';

/** What a tool hands back (SPEC MSG-3); `feedbackRequired` leaves the call open. */
export type ToolOutput =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'fail'; readonly text: string }
  | { readonly kind: 'stop'; readonly payload?: JsonValue }
  | { readonly kind: 'agentFailed'; readonly payload?: JsonValue }
  | { readonly kind: 'feedbackRequired'; readonly payload?: JsonValue };

/**
 * Every tool output kind (SPEC MSG-3), listed once: checks of a tool's or hook's output, and the
 * tracing of an outcome, read it. The type below fails to compile when a kind is missing.
 */
export const TOOL_OUTPUT_KINDS = [
  'text',
  'fail',
  'stop',
  'agentFailed',
  'feedbackRequired',
] as const;

/** `true` only when {@link TOOL_OUTPUT_KINDS} lists exactly the kinds of `ToolOutput`. */
const _everyKindListed: [ToolOutput['kind']] extends [(typeof TOOL_OUTPUT_KINDS)[number]]
  ? [(typeof TOOL_OUTPUT_KINDS)[number]] extends [ToolOutput['kind']]
    ? true
    : never
  : never = true;

/** True for a value that names a tool output kind. */
export function isToolOutputKind(kind: unknown): kind is ToolOutput['kind'] {
  return typeof kind === 'string' && (TOOL_OUTPUT_KINDS as readonly string[]).includes(kind);
}

function withPayload<K extends 'stop' | 'agentFailed' | 'feedbackRequired'>(
  kind: K,
  payload: JsonValue | undefined,
): { kind: K; payload?: JsonValue } {
  return payload === undefined ? { kind } : { kind, payload };
}

/** The text of a `text` output, else `undefined`. */
export function asText(output: ToolOutput): string | undefined {
  return output.kind === 'text' ? output.text : undefined;
}

/** The text of a `fail` output, else `undefined`. */
export function asFail(output: ToolOutput): string | undefined {
  return output.kind === 'fail' ? output.text : undefined;
}

/** The payload of a `stop` output; `undefined` for another variant or a payload-less stop. */
export function asStop(output: ToolOutput): JsonValue | undefined {
  return output.kind === 'stop' ? output.payload : undefined;
}

/** The payload of an `agentFailed` output; `undefined` for another variant or no payload. */
export function asAgentFailed(output: ToolOutput): JsonValue | undefined {
  return output.kind === 'agentFailed' ? output.payload : undefined;
}

/** Constructors and accessors of {@link ToolOutput}. */
export const ToolOutput = {
  text: (text: string): ToolOutput => ({ kind: 'text', text }),
  fail: (text: string): ToolOutput => ({ kind: 'fail', text }),
  stop: (payload?: JsonValue): ToolOutput => withPayload('stop', payload),
  agentFailed: (payload?: JsonValue): ToolOutput => withPayload('agentFailed', payload),
  feedbackRequired: (payload?: JsonValue): ToolOutput => withPayload('feedbackRequired', payload),
  asText,
  asFail,
  asStop,
  asAgentFailed,
} as const;
