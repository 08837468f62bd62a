import type { Tracer } from '@opentelemetry/api';
import type { AgentBuilder } from '../agent/agentBuilder.js';
import { AgentError } from '../errors/agentError.js';
import { traceModel } from './traceModel.js';
import { traceRun } from './traceRun.js';
import { traceTool } from './traceTool.js';
import type { TracingOptions } from './tracingOptions.js';

const traced = new WeakSet<AgentBuilder>();

/**
 * Configures `builder` so the agents it builds emit OpenTelemetry spans through `tracer`, after
 * the GenAI semantic conventions: `invoke_agent` per run, and under it `chat <model>` per
 * completion and `execute_tool <name>` per tool invocation. The model and the tools are wrapped
 * at `build()`, so `llm()` and `tools()` may come before or after. Tracing changes no event.
 * Message contents, tool arguments and results are not recorded. A builder is traced once.
 */
export function withTracing(
  builder: AgentBuilder,
  tracer: Tracer,
  options: TracingOptions = {},
): AgentBuilder {
  if (traced.has(builder)) {
    throw new AgentError('invalidConfiguration', 'withTracing was already applied to this builder');
  }
  if (typeof tracer?.startSpan !== 'function') {
    throw new AgentError('invalidConfiguration', 'withTracing needs an OpenTelemetry Tracer');
  }
  traced.add(builder);
  // The secrets of the model built last: a run masks with them until it asks its own model.
  let built: () => readonly string[] = () => [];
  return builder
    .mapModel((model) => {
      const wrapped = traceModel(model, tracer, options);
      built = () => wrapped.secrets?.() ?? [];
      return wrapped;
    })
    .mapTools((tool) => traceTool(tool, tracer))
    .aroundRun(traceRun(tracer, options, () => built()));
}
