import type { AgentContext } from './agentContext.js';
import type { ToolCall } from '../messages/toolCall.js';
import type { ToolOutput } from '../messages/toolOutput.js';
import type { ToolSpec } from '../ports/chatCompletion.js';

/**
 * A tool the model can call (SPEC TOOL-1). Implement it directly when the tool needs the tool call
 * (custom feedback, SPEC HITL-9); otherwise build one with `tool({...})`. A returned string becomes
 * a text output; a thrown error is a failure that counts toward `toolRetryLimit` (SPEC TOOL-3).
 */
export interface Tool {
  readonly name: string;
  /** Re-running it after a crash is safe (SPEC TOOL-7); by default the agent asks a person. */
  readonly idempotent?: boolean;
  spec(): ToolSpec;
  invoke(
    context: AgentContext,
    toolCall: ToolCall,
  ): Promise<ToolOutput | string> | ToolOutput | string;
}
