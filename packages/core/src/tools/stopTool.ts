import { ToolOutput } from '../messages/toolOutput.js';
import type { ToolSpec } from '../ports/chatCompletion.js';
import type { Tool } from '../api/tool.js';

const STOP_SPEC: ToolSpec = {
  name: 'stop',
  description: 'Call this when you have completed your task, or cannot complete it, to stop.',
  parameters: { type: 'object', properties: {}, additionalProperties: false, required: [] },
};

/**
 * The default `stop` tool (SPEC STOP-1): no arguments, and it ignores whatever it is sent, even
 * text that is not JSON, because a model that wants to stop should never be kept running by a typo.
 */
export function stopTool(): Tool {
  return {
    name: 'stop',
    // No side effects, so a crash before its output was recorded can simply run it again.
    idempotent: true,
    spec: () => STOP_SPEC,
    invoke: () => ToolOutput.stop(),
  };
}
