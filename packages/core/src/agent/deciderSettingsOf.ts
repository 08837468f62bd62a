import type { DeciderSettings, ToolPolicy } from '../decider/deciderSettings.js';
import type { AgentConfig } from '../loop/agentConfig.js';
import { isApprovalGate } from '../tools/approvalRequired.js';

/**
 * The decider's settings of an agent's configuration: its plain values and each tool's policy,
 * never the tool's code (SPEC TOOL-7). Built once per agent.
 */
export function deciderSettingsOf(config: AgentConfig): DeciderSettings {
  const tools = new Map<string, ToolPolicy>();
  for (const [name, tool] of config.tools) {
    tools.set(name, {
      idempotent: tool.idempotent === true,
      gated: isApprovalGate(tool),
    });
  }
  return {
    streamId: config.streamId,
    ...(config.systemPrompt === undefined ? {} : { systemPrompt: config.systemPrompt }),
    ...(config.limit === undefined ? {} : { limit: config.limit }),
    toolRetryLimit: config.toolRetryLimit,
    stopOnAssistant: config.stopOnAssistant,
    runLeaseMs: config.runLeaseMs,
    tools,
  };
}
