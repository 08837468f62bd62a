import type { ToolResult } from '../api/hooks.js';
import { ToolError } from '../errors/toolError.js';
import type { ToolCall } from '../messages/toolCall.js';
import { isToolOutputKind, ToolOutput } from '../messages/toolOutput.js';
import { canonicalToolOutput, toolOutputProblem } from '../events/canonicalToolOutput.js';
import type { Tool } from '../api/tool.js';
import type { AgentContext } from '../api/agentContext.js';

/**
 * Invokes one tool and never throws: a missing tool (SPEC TOOL-6), a thrown error or a malformed
 * output is a failed result (SPEC TOOL-3); a returned string is a text output.
 */
export async function invokeTool(
  tool: Tool | undefined,
  context: AgentContext,
  toolCall: ToolCall,
): Promise<ToolResult> {
  if (tool === undefined) return { ok: false, error: ToolError.unknownTool(toolCall.name) };
  try {
    const returned: unknown = await tool.invoke(context, toolCall);
    return { ok: true, output: checkOutput(tool.name, returned) };
  } catch (error) {
    return { ok: false, error: ToolError.from(error) };
  }
}

function checkOutput(toolName: string, returned: unknown): ToolOutput {
  if (typeof returned === 'string') return ToolOutput.text(returned);
  const kind = (returned as { kind?: unknown } | null)?.kind;
  if (!isToolOutputKind(kind)) {
    throw ToolError.executionFailed(`tool ${toolName} returned neither a string nor a ToolOutput`);
  }
  // Checked as the stored event will be, so what is recorded always reads back (SPEC EVT-6).
  const problem = outputProblem(returned);
  if (problem !== undefined) {
    throw ToolError.executionFailed(
      `tool ${toolName} returned an output that is not valid: ${problem}`,
    );
  }
  return canonicalToolOutput(returned as ToolOutput);
}

function outputProblem(returned: unknown): string | undefined {
  try {
    return toolOutputProblem(returned);
  } catch {
    return 'output: cyclic or too deeply nested';
  }
}
