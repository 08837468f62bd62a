// The tracing entry of @agentlog/core: OpenTelemetry spans for runs, completions and tool calls.
// It loads @opentelemetry/api (an optional peer); the core's root never does.
export { withTracing } from './withTracing.js';
export type { TracingOptions } from './tracingOptions.js';
