import type { RawToolResult } from '../events/agentEvent.js';
import { ToolOutput } from '../messages/toolOutput.js';

/**
 * The output a tool's result, as `afterTool` left it, puts into the history (SPEC HITL-2, TOOL-3):
 * a failure enters as a `fail` output with its message; a feedback request enters nothing, so
 * the call stays open and `onNewMessage` does not fire for it.
 */
export function toolMessageOutput(result: RawToolResult): ToolOutput | undefined {
  if (!result.ok) return ToolOutput.fail(result.error);
  return result.output.kind === 'feedbackRequired' ? undefined : result.output;
}
