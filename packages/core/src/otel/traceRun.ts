import type { Attributes, Tracer } from '@opentelemetry/api';
import type { RunWrapper } from '../api/runWrapper.js';
import type { AgentStopped } from '../events/agentEvent.js';
import { markFailed, runErrorType } from './markFailed.js';
import { otelApi } from './otelApi.js';
import { parentContext, withinSpan, type RunTrace } from './traceScope.js';
import type { TracingOptions } from './tracingOptions.js';

/**
 * A run wrapper with an `invoke_agent` span per run: the stream, the run mode and, once it ends,
 * the stop this run recorded (`agentlog.stop.cause`, `agentlog.stop.reason`); ERROR with
 * `error.type` (the error's code) when the run rejects. The span ends however the run ends.
 */
export function traceRun(
  tracer: Tracer,
  options: TracingOptions,
  secrets: () => readonly string[],
): RunWrapper {
  const { agentName, provider } = options;
  const name = agentName === undefined ? 'invoke_agent' : `invoke_agent ${agentName}`;
  return async (run, { agent, mode }) => {
    const attributes: Attributes = {
      'gen_ai.operation.name': 'invoke_agent',
      ...(agentName === undefined ? {} : { 'gen_ai.agent.name': agentName }),
      ...(provider === undefined
        ? {}
        : { 'gen_ai.provider.name': provider, 'gen_ai.system': provider }),
      'gen_ai.conversation.id': agent.streamId,
      'agentlog.stream.id': agent.streamId,
      'agentlog.run.mode': mode,
    };
    const span = tracer.startSpan(
      name,
      { kind: otelApi.SpanKind.INTERNAL, attributes },
      parentContext(),
    );
    const trace: RunTrace = { secrets };
    // The stop this run recorded, as it was stored: not a stop an earlier run left in the state.
    let stopped: AgentStopped | undefined;
    const subscription = agent.events$.subscribe((event) => {
      if (event.type === 'AgentStopped') stopped = event;
    });
    try {
      await withinSpan(span, trace, run);
    } catch (error) {
      markFailed(span, runErrorType(error), error, trace.secrets());
      throw error;
    } finally {
      subscription.unsubscribe();
      if (stopped !== undefined) {
        span.setAttribute('agentlog.stop.cause', stopped.data.cause);
        span.setAttribute('agentlog.stop.reason', stopped.data.reason.kind);
      }
      span.end();
    }
  };
}
