import type * as OtelApi from '@opentelemetry/api';

/**
 * `@opentelemetry/api`, loaded once: the only module of agentlog that loads it, so the core's
 * root never does. Without it, importing `@agentlog/core/otel` fails with a one-line error.
 */
export const otelApi: typeof OtelApi = await loadOtelApi();

async function loadOtelApi(): Promise<typeof OtelApi> {
  try {
    return await import('@opentelemetry/api');
  } catch (error) {
    throw missingApiError(error);
  }
}

/** The one-line error for a missing `@opentelemetry/api`; any other failure stays as it is. */
export function missingApiError(error: unknown): unknown {
  const code = (error as { code?: unknown } | null)?.code;
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return error;
  return new Error(
    '@agentlog/core/otel needs @opentelemetry/api: run `npm install @opentelemetry/api`',
    { cause: error },
  );
}
