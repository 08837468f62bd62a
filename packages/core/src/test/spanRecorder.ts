import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import type { Tracer } from '@opentelemetry/api';

/** A tracer for tests: finished spans, and the spans started but not ended yet. */
export interface SpanRecorder {
  readonly tracer: Tracer;
  /** The finished spans, in the order they ended. */
  spans(): readonly ReadableSpan[];
  /** The one finished span with this name; throws unless there is exactly one. */
  span(name: string): ReadableSpan;
  /** How many spans were started and not ended. */
  open(): number;
}

/** An in-memory exporter behind a `BasicTracerProvider`, plus a count of open spans. */
export function spanRecorder(): SpanRecorder {
  const exporter = new InMemorySpanExporter();
  let open = 0;
  const counter: SpanProcessor = {
    onStart: () => void (open += 1),
    onEnd: () => void (open -= 1),
    forceFlush: () => Promise.resolve(),
    shutdown: () => Promise.resolve(),
  };
  const provider = new BasicTracerProvider({
    spanProcessors: [counter, new SimpleSpanProcessor(exporter)],
  });
  return {
    tracer: provider.getTracer('test'),
    spans: () => exporter.getFinishedSpans(),
    span: (name) => {
      const found = exporter.getFinishedSpans().filter((span) => span.name === name);
      if (found.length !== 1) throw new Error(`expected one span ${name}, found ${found.length}`);
      return found[0] as ReadableSpan;
    },
    open: () => open,
  };
}

/** The id of a span's parent, if it has one. */
export function parentOf(span: ReadableSpan): string | undefined {
  return span.parentSpanContext?.spanId;
}

/** A span's own id. */
export function idOf(span: ReadableSpan): string {
  return span.spanContext().spanId;
}
