import type { AgentBuilder, ToolCall, ToolResult } from '@agentlog/core';

/**
 * Prints the showcase's timeline through hooks, like Swiftide's captured run: `→` when a tool is
 * invoked, `⏸` when it waits for approval, `✓`/`✗` for its result, `■` when it stops the agent.
 */
export function withTimeline(builder: AgentBuilder, print: (line: string) => void): AgentBuilder {
  return builder
    .beforeTool((_agent, call) => {
      print(`  → ${call.name} ${summarizeArgs(call)}`);
    })
    .afterTool((_agent, call, result) => {
      print(`  ${call.name} ${describeResult(result)}`);
    });
}

function summarizeArgs(call: ToolCall): string {
  let args: Record<string, unknown>;
  try {
    args = JSON.parse(call.args ?? '{}') as Record<string, unknown>;
  } catch {
    return '<unreadable arguments>';
  }
  if (typeof args.markdown === 'string') return `<${args.markdown.split('\n').length} lines>`;
  if (typeof args.version === 'string') {
    const count = (key: string) => (Array.isArray(args[key]) ? args[key].length : 0);
    return `(version ${args.version}: highlights ${count('highlights')}, breaking ${count('breaking_changes')}, fixes ${count('fixes')})`;
  }
  return '';
}

function describeResult(result: ToolResult): string {
  if (!result.ok) return `✗ ${result.error.message}`;
  const { output } = result;
  switch (output.kind) {
    case 'text':
      return `✓ ${output.text}`;
    case 'fail':
      return `✗ ${output.text}`;
    case 'feedbackRequired':
      return '⏸ waiting for approval';
    case 'stop':
      return '■ done';
    case 'agentFailed':
      return `■ failed: ${JSON.stringify(output.payload ?? null)}`;
  }
}
