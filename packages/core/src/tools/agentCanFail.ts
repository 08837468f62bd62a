import type { AgentContext } from '../api/agentContext.js';
import { ToolError } from '../errors/toolError.js';
import type { ToolCall } from '../messages/toolCall.js';
import { ToolOutput } from '../messages/toolOutput.js';
import type { ToolSpec } from '../ports/chatCompletion.js';
import { canonicalJson, jsonRoundTrip } from '../support/json.js';
import type { JsonObject } from '../support/json.js';
import { parseJsonArgs } from './toolArguments.js';
import type { Tool } from '../api/tool.js';

const NAME = 'task_failed';
const DESCRIPTION =
  'If you cannot complete your task, or have otherwise failed, call this with your reason for failure.';

const REASON_SCHEMA: JsonObject = {
  type: 'object',
  properties: { reason: { type: 'string', description: 'The reason for failure' } },
  required: ['reason'],
  additionalProperties: false,
};

/**
 * The `task_failed` tool (SPEC STOP-3, STOP-5): the model gives up and the run stops with
 * `agentFailed`, which is a stop reason, not a rejected run. Arguments that are not JSON are a failure.
 */
export class AgentCanFail implements Tool {
  readonly name = NAME;
  /** No side effects, so a crash before its output was recorded can simply run it again. */
  readonly idempotent = true;
  readonly #spec: ToolSpec;
  readonly #custom: boolean;

  private constructor(parameters: JsonObject, custom: boolean) {
    this.#spec = { name: NAME, description: DESCRIPTION, parameters };
    this.#custom = custom;
  }

  /** Takes one string field `reason`, which becomes the `agentFailed` payload. */
  static default(): AgentCanFail {
    return new AgentCanFail(REASON_SCHEMA, false);
  }

  /**
   * Takes arguments of the caller's JSON schema. The payload is those arguments serialised back to
   * a JSON *string*, not the object: kept from Swiftide on purpose, so callers parse it a second time.
   */
  static withParametersSchema(jsonSchema: JsonObject): AgentCanFail {
    return new AgentCanFail(jsonRoundTrip(jsonSchema), true);
  }

  /** The spec, fixed at construction. */
  spec(): ToolSpec {
    return this.#spec;
  }

  /** Stops the run as failed, with the reason or the serialised arguments as payload. */
  // Async, so bad arguments reject like any other tool failure, never throw synchronously.
  // eslint-disable-next-line @typescript-eslint/require-await
  async invoke(_context: AgentContext, toolCall: ToolCall): Promise<ToolOutput> {
    if (toolCall.args === undefined) {
      throw ToolError.missingArguments(this.#custom ? 'arguments' : 'reason');
    }
    const parsed = parseJsonArgs(toolCall.args, NAME);
    // Canonical (sorted keys) so the same arguments always give the same string.
    if (this.#custom) return ToolOutput.agentFailed(canonicalJson(parsed));
    if (
      typeof parsed !== 'object' ||
      parsed === null ||
      Array.isArray(parsed) ||
      !('reason' in parsed)
    ) {
      throw ToolError.missingArguments('reason');
    }
    const { reason } = parsed;
    if (typeof reason !== 'string') {
      throw ToolError.wrongArguments(`tool ${NAME}: reason must be a string`);
    }
    return ToolOutput.agentFailed(reason);
  }
}
