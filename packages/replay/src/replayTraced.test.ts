import { Agent, type AgentBuilder } from '@agentlog/core';
import { withTracing } from '@agentlog/core/otel';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { replayStream } from './replayStream.js';
import { greet, recordGreeting } from './test/greetSession.js';

// A traced agent replays cleanly: tracing wraps the model replay gives it, and changes no event.

function tracing() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  return { exporter, tracer: provider.getTracer('replay-test') };
}

describe('replay of a traced agent', () => {
  it('RPL-2 replays cleanly with recorded and live tools, and traces the replayed run', async () => {
    const recording = tracing();
    const traced =
      (tracer = recording.tracer) =>
      (): AgentBuilder =>
        withTracing(Agent.builder().tools([greet]), tracer, { agentName: 'greeter' });
    const events = await recordGreeting(traced()(), 'traced');
    expect(recording.exporter.getFinishedSpans()).toHaveLength(4);
    for (const tools of ['recorded', 'live'] as const) {
      const replaying = tracing();
      const result = await replayStream(events, { agent: traced(replaying.tracer), tools });
      expect(result.ok, `${tools}: ${result.ok ? '' : result.divergence.message}`).toBe(true);
      const names = replaying.exporter.getFinishedSpans().map((span) => span.name);
      expect(names).toContain('invoke_agent greeter');
      expect(names.filter((name) => name === 'chat')).toHaveLength(2);
      // Recorded results are served, not run: only live tools get an execute_tool span.
      expect(names.includes('execute_tool greet')).toBe(tools === 'live');
    }
  });
});
