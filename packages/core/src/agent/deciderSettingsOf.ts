import type { DeciderSettings, ToolPolicy } from '../decider/deciderSettings.js';
import { approvalCondition, isApprovalGate } from '../tools/approvalRequired.js';
import type { AgentOptions } from '../api/agentOptions.js';

/**
 * The decider's settings: a projection of an agent's options: its plain values and each tool's policy,
 * never the tool's code (SPEC TOOL-7). Built once per agent.
 */
export function deciderSettingsOf(options: AgentOptions): DeciderSettings {
  const tools = new Map<string, ToolPolicy>();
  for (const [name, tool] of options.tools) {
    tools.set(name, {
      idempotent: tool.idempotent === true,
      gated: isApprovalGate(tool),
      ...(approvalCondition(tool) === undefined ? {} : { conditional: true }),
    });
  }
  return {
    streamId: options.streamId,
    ...(options.systemPrompt === undefined ? {} : { systemPrompt: options.systemPrompt }),
    ...(options.limit === undefined ? {} : { limit: options.limit }),
    toolRetryLimit: options.toolRetryLimit,
    stopOnAssistant: options.stopOnAssistant,
    runLeaseMs: options.runLeaseMs,
    ...(options.name === undefined ? {} : { agentName: options.name }),
    ...(options.continueAfterDecision === false ? { continueAfterDecision: false } : {}),
    tools,
  };
}
