import type { Attributes, Span, Tracer } from '@opentelemetry/api';
import type { ChatCompletion, CompletionResponse, FinishReason } from '../ports/chatCompletion.js';
import { modelSecrets } from '../ports/modelSecrets.js';
import { errorType, markFailed } from './markFailed.js';
import { otelApi } from './otelApi.js';
import { currentRun, parentContext } from './traceScope.js';
import type { TracingOptions } from './tracingOptions.js';

/** The conventions' finish reasons for agentlog's (SPEC LOOP-11). */
const finishReasons: Record<FinishReason, string> = {
  stop: 'stop',
  length: 'length',
  toolCalls: 'tool_calls',
  contentFilter: 'content_filter',
  other: 'other',
};

/**
 * The model, with a `chat` span per completion under the run's span: request and response model,
 * token usage, finish reasons; ERROR with `error.type` when the call fails. It answers exactly as
 * the model does and keeps its `secrets()`, so the stored events do not change.
 */
export function traceModel(
  model: ChatCompletion,
  tracer: Tracer,
  options: TracingOptions,
): ChatCompletion {
  const secrets = modelSecrets(model);
  const own = (model as { model?: unknown }).model;
  const requestModel = options.model ?? (typeof own === 'string' ? own : undefined);
  const attributes: Attributes = {
    'gen_ai.operation.name': 'chat',
    ...(requestModel === undefined ? {} : { 'gen_ai.request.model': requestModel }),
    ...(options.provider === undefined
      ? {}
      : { 'gen_ai.provider.name': options.provider, 'gen_ai.system': options.provider }),
  };
  const name = requestModel === undefined ? 'chat' : `chat ${requestModel}`;
  const traced: ChatCompletion = {
    async complete(request, completionOptions) {
      const run = currentRun();
      if (run !== undefined) run.secrets = secrets;
      const span = tracer.startSpan(
        name,
        { kind: otelApi.SpanKind.CLIENT, attributes },
        parentContext(),
      );
      try {
        const response = await model.complete(request, completionOptions);
        describeResponse(span, response);
        return response;
      } catch (error) {
        markFailed(span, errorType(error), error, secrets());
        throw error;
      } finally {
        span.end();
      }
    },
  };
  if (typeof own === 'string') Object.assign(traced, { model: own });
  if (typeof model.secrets === 'function') {
    Object.defineProperty(traced, 'secrets', { value: secrets, enumerable: false });
  }
  return traced;
}

/** What a response says of itself; the model's answer may be malformed, so each field is checked. */
function describeResponse(span: Span, response: CompletionResponse | undefined): void {
  if (response === null || typeof response !== 'object') return;
  const { model, usage, finishReason } = response as Partial<CompletionResponse>;
  if (typeof model === 'string') span.setAttribute('gen_ai.response.model', model);
  if (typeof usage?.promptTokens === 'number')
    span.setAttribute('gen_ai.usage.input_tokens', usage.promptTokens);
  if (typeof usage?.completionTokens === 'number')
    span.setAttribute('gen_ai.usage.output_tokens', usage.completionTokens);
  const known = typeof finishReason === 'string' && Object.hasOwn(finishReasons, finishReason);
  const reason = known ? finishReasons[finishReason] : undefined;
  if (reason !== undefined) span.setAttribute('gen_ai.response.finish_reasons', [reason]);
}
