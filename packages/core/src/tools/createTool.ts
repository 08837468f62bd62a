import type { z } from 'zod';
import type { AgentContext } from '../api/agentContext.js';
import { AgentError } from '../errors/agentError.js';
import type { ToolOutput } from '../messages/toolOutput.js';
import type { ToolSpec } from '../ports/chatCompletion.js';
import { toolArguments } from './toolArguments.js';
import type { Tool } from '../api/tool.js';

// OpenAI's rule for function names; other providers accept a superset.
const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** What `tool()` builds a {@link Tool} from: a zod object schema and the function it feeds. */
export interface ToolDefinition<S extends z.ZodType> {
  /** 1 to 64 letters, digits, `_` or `-`. */
  readonly name: string;
  readonly description: string;
  /** A `z.object(...)`; optional keys reach the model as nullable ones (see `strictJsonSchema`). */
  readonly parameters: S;
  /** Re-running it after a crash is safe (SPEC TOOL-7). */
  readonly idempotent?: boolean;
  /** Runs the tool with validated arguments; a thrown error is a failure (SPEC TOOL-3). */
  execute(
    args: z.output<S>,
    context: AgentContext,
  ): ToolOutput | string | Promise<ToolOutput | string>;
}

/**
 * Builds a tool from a zod schema and a function (SPEC TOOL-1). The strict spec is computed once;
 * a bad name or a schema strict mode cannot express throws `AgentError('invalidConfiguration')`.
 * Arguments that are not JSON or do not match reject with `ToolError.wrongArguments` (SPEC TOOL-5).
 */
export function tool<S extends z.ZodType>(definition: ToolDefinition<S>): Tool {
  const { name, description, parameters, idempotent } = definition;
  if (typeof name !== 'string' || !TOOL_NAME.test(name)) {
    throw new AgentError(
      'invalidConfiguration',
      `tool ${JSON.stringify(name)}: the name must be 1 to 64 letters, digits, _ or -`,
    );
  }
  const args = toolArguments(parameters, name);
  const spec: ToolSpec = { name, description, parameters: args.parameters };
  return {
    name,
    ...(idempotent === undefined ? {} : { idempotent }),
    spec: () => spec,
    // Async, so a parse failure is a rejection like any other tool failure, never a sync throw.
    invoke: async (context, toolCall) =>
      definition.execute(await args.parse(toolCall.args), context),
  };
}
