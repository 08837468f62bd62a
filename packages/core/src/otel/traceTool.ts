import type { Tracer } from '@opentelemetry/api';
import { ToolError } from '../errors/toolError.js';
import { gateOptions, runsOnlyWhenApproved } from '../tools/approvalRequired.js';
import type { Tool } from '../api/tool.js';
import { isToolOutputKind } from '../messages/toolOutput.js';
import { errorType, markFailed } from './markFailed.js';
import { otelApi } from './otelApi.js';
import { currentRun, parentContext, withinSpan } from './traceScope.js';

/**
 * The tool, with an `execute_tool` span per invocation under the run's span: tool name, call id
 * and outcome (`agentlog.tool.outcome`); ERROR when the tool throws, returns `fail` or returns
 * something that is no output. It keeps the tool's name, spec, idempotent flag and approval gate,
 * and returns what the tool returns. Arguments and results are not recorded.
 */
export function traceTool(tool: Tool, tracer: Tracer): Tool {
  const traced: Tool = {
    name: tool.name,
    ...(tool.idempotent === undefined ? {} : { idempotent: tool.idempotent }),
    spec: () => tool.spec(),
    async invoke(context, toolCall) {
      const run = currentRun();
      const span = tracer.startSpan(
        `execute_tool ${tool.name}`,
        {
          kind: otelApi.SpanKind.INTERNAL,
          attributes: {
            'gen_ai.operation.name': 'execute_tool',
            'gen_ai.tool.name': tool.name,
            'gen_ai.tool.call.id': toolCall.id,
            'gen_ai.tool.type': 'function',
          },
        },
        parentContext(),
      );
      const secrets = (): readonly string[] => run?.secrets() ?? [];
      try {
        // A tool that runs an agent of its own nests that agent's run span under this one.
        const returned = await withinSpan(span, run ?? { secrets }, () =>
          tool.invoke(context, toolCall),
        );
        const outcome = outcomeOf(returned);
        span.setAttribute('agentlog.tool.outcome', outcome ?? 'invalid');
        if (outcome === 'fail' || outcome === undefined) {
          const message = outcome === 'fail' ? 'the tool returned fail' : 'no tool output';
          markFailed(span, outcome ?? 'invalidOutput', message, secrets());
        }
        return returned;
      } catch (error) {
        span.setAttribute('agentlog.tool.outcome', 'thrown');
        markFailed(span, errorType(ToolError.from(error)), error, secrets());
        throw error;
      } finally {
        span.end();
      }
    },
  };
  const gate = gateOptions(tool);
  return gate === undefined ? traced : Object.assign(traced, { [runsOnlyWhenApproved]: gate });
}

/** The kind of what a tool returned: a string is a text output. */
function outcomeOf(returned: unknown): string | undefined {
  if (typeof returned === 'string') return 'text';
  const kind = (returned as { kind?: unknown } | null)?.kind;
  return isToolOutputKind(kind) ? kind : undefined;
}
