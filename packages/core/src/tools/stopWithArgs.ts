import type { z } from 'zod';
import type { AgentContext } from '../api/agentContext.js';
import { ToolError } from '../errors/toolError.js';
import type { ToolCall } from '../messages/toolCall.js';
import { ToolOutput } from '../messages/toolOutput.js';
import type { ToolSpec } from '../ports/chatCompletion.js';
import { findNonJson, jsonRoundTrip } from '../support/json.js';
import type { JsonObject, JsonValue } from '../support/json.js';
import { parseJsonArgs, toolArguments } from './toolArguments.js';
import type { Tool } from '../api/tool.js';

const NAME = 'stop';
const DESCRIPTION = 'When you have completed your task, call this with your expected output.';

const OUTPUT_SCHEMA: JsonObject = {
  type: 'object',
  properties: { output: { type: 'string', description: 'The expected output of the task' } },
  required: ['output'],
  additionalProperties: false,
};

type PayloadOf = (args: string | undefined) => JsonValue | Promise<JsonValue>;

/**
 * A `stop` tool that hands the run's result over as the stop payload (SPEC STOP-2, STOP-5).
 * Arguments that are not JSON are a failure the model sees (`ToolError.wrongArguments`).
 */
export class StopWithArgs implements Tool {
  readonly name = NAME;
  /** No side effects, so a crash before its output was recorded can simply run it again. */
  readonly idempotent = true;
  readonly #spec: ToolSpec;
  readonly #payloadOf: PayloadOf;

  private constructor(parameters: JsonObject, payloadOf: PayloadOf) {
    this.#spec = { name: NAME, description: DESCRIPTION, parameters };
    this.#payloadOf = payloadOf;
  }

  /** Takes one string field `output`; the payload is its value, as the model sent it. */
  static default(): StopWithArgs {
    return new StopWithArgs(OUTPUT_SCHEMA, (args) => {
      const parsed = parseJsonArgs(requireArgs(args, 'output'), NAME);
      if (!isPlainObject(parsed) || !('output' in parsed))
        throw ToolError.missingArguments('output');
      return parsed.output ?? null;
    });
  }

  /** Takes arguments of the caller's JSON schema; the payload is the whole argument value, unchecked. */
  static withParametersSchema(jsonSchema: JsonObject): StopWithArgs {
    return new StopWithArgs(jsonRoundTrip(jsonSchema), (args) =>
      parseJsonArgs(requireArgs(args, 'arguments'), NAME),
    );
  }

  /**
   * Takes arguments of a zod object schema (spec from `strictJsonSchema`) and validates them, so a
   * mismatch is a `ToolError.wrongArguments` the model can correct. The payload is the parsed value.
   */
  static fromZod(schema: z.ZodType): StopWithArgs {
    const args = toolArguments(schema, NAME);
    return new StopWithArgs(args.parameters, async (text) => {
      const value: unknown = await args.parse(text);
      // A transform may yield a Date or the like; the payload goes into an event, so it must be JSON.
      const nonJson = findNonJson(value);
      if (nonJson !== undefined) {
        throw ToolError.executionFailed(
          `tool ${NAME}: the validated arguments are not plain JSON at ${nonJson}`,
        );
      }
      // The value a store hands back on replay, so a live run and a replayed one agree.
      return jsonRoundTrip(value) as JsonValue;
    });
  }

  /** The spec, fixed at construction. */
  spec(): ToolSpec {
    return this.#spec;
  }

  /** Stops with the payload this form derives from the arguments. */
  async invoke(_context: AgentContext, toolCall: ToolCall): Promise<ToolOutput> {
    return ToolOutput.stop(await this.#payloadOf(toolCall.args));
  }
}

function requireArgs(args: string | undefined, expected: string): string {
  if (args === undefined) throw ToolError.missingArguments(expected);
  return args;
}

function isPlainObject(value: JsonValue): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
