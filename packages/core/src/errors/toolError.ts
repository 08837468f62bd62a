import { AgentlogError, isAgentlogError } from './agentlogError.js';

/** Why a tool call failed; each counts toward `toolRetryLimit` (SPEC TOOL-3). */
export type ToolErrorCode =
  'wrongArguments' | 'missingArguments' | 'executionFailed' | 'unknownTool';

/** A failed tool call. Throw it from a tool, or let any other thrown error be wrapped in one. */
export class ToolError extends AgentlogError<ToolErrorCode> {
  /** The arguments are not valid JSON or do not match the tool's schema (SPEC TOOL-5). */
  static wrongArguments(message: string): ToolError {
    return new ToolError('wrongArguments', message);
  }

  /** The tool needs arguments and the model sent none. */
  static missingArguments(expected: string): ToolError {
    return new ToolError('missingArguments', `missing arguments: expected ${expected}`);
  }

  /** The tool ran and failed. */
  static executionFailed(message: string, cause?: unknown): ToolError {
    return new ToolError('executionFailed', message, { cause });
  }

  /** The model called a tool that the agent does not have (SPEC TOOL-6). */
  static unknownTool(name: string): ToolError {
    return new ToolError(
      'unknownTool',
      name === '' ? 'the tool call has no tool name' : `no tool named ${name}`,
    );
  }

  /** Turns whatever a tool threw into a `ToolError`, keeping the original as `cause`. */
  static from(error: unknown): ToolError {
    if (error instanceof ToolError) return error;
    if (isAgentlogError(error) && isToolErrorCode(error.code)) {
      return new ToolError(error.code, error.message, { cause: error });
    }
    return ToolError.executionFailed(describeThrown(error), error);
  }
}

/**
 * The text of whatever was thrown. A value without a string form (`Object.create(null)`, an
 * object whose `toString` throws) still gets one: a tool's failure never crashes the process.
 */
export function describeThrown(thrown: unknown): string {
  try {
    const text: unknown = thrown instanceof Error ? thrown.message : String(thrown);
    return typeof text === 'string' ? text : String(text);
  } catch {
    return `a value without a text form (${Object.prototype.toString.call(thrown)})`;
  }
}

function isToolErrorCode(code: string): code is ToolErrorCode {
  return ['wrongArguments', 'missingArguments', 'executionFailed', 'unknownTool'].includes(code);
}
