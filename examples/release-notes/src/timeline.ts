import type { AgentBuilder, ToolCall, ToolResult } from '@agentlog/core';
import { visibleLine } from '@agentlog/core/read-models';
import type { Reviewer } from './reviewer.js';
import { noStyle, type Style } from './style.js';

/**
 * Prints the showcase's timeline through hooks, like Swiftide's captured run: `→` when a tool is
 * invoked, `⏸` when it waits for approval, `✓`/`✗` for its result, `■` when it stops the agent.
 */
export function withTimeline(
  builder: AgentBuilder,
  print: (line: string) => void,
  style: Style = noStyle,
): AgentBuilder {
  const seen = new Set<string>();
  const refused = new Set<string>();
  let explained = false;
  return builder
    .beforeTool((agent, call) => {
      if (agent.state().feedback[call.id]?.feedback.kind === 'refused') refused.add(call.id);
      const resumed = seen.has(call.id);
      seen.add(call.id);
      print(`  → ${visibleLine(call.name)} ${summarizeArgs(call)}`);
      if (resumed && !explained) {
        explained = true;
        print(
          style.dim(
            '    (the decided call resumes: hooks see it twice, once when it asked, once when it ran; HITL-7)',
          ),
        );
      }
    })
    .afterTool((_agent, call, result) => {
      // A refused call answers the model with a text output: it did not run.
      const line =
        refused.has(call.id) && result.ok && result.output.kind === 'text'
          ? `  ${visibleLine(call.name)} ✗ not run: ${visibleLine(result.output.text)}`
          : `  ${visibleLine(call.name)} ${visibleLine(describeResult(result))}`;
      print(result.ok && result.output.kind === 'feedbackRequired' ? style.yellow(line) : line);
    });
}

/** The reviewer, printing who decided and their words after each decision. */
export function announcingDecisions(
  reviewer: Reviewer,
  print: (line: string) => void,
  style: Style = noStyle,
): Reviewer {
  return {
    name: reviewer.name,
    async review(proposal, call) {
      const verdict = await reviewer.review(proposal, call);
      if (verdict.kind === 'approve') print(style.green(`  ✓ approved by ${reviewer.name}`));
      else if (verdict.kind === 'revise') {
        print(style.red(`  ✗ refused by ${reviewer.name}: ${visibleLine(verdict.feedback)}`));
      } else print(style.red(`  ✗ rejected by ${reviewer.name}`));
      return verdict;
    },
  };
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
    return `(version ${visibleLine(args.version)}: highlights ${count('highlights')}, breaking ${count('breaking_changes')}, fixes ${count('fixes')})`;
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
