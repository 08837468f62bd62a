import type { Span } from '@opentelemetry/api';
import { CompletionError, failureKindOfThrown } from '../errors/completionError.js';
import { isAgentlogError } from '../errors/agentlogError.js';
import { describeThrown } from '../errors/toolError.js';
import { secretMasker } from '../support/secretMasker.js';
import { otelApi } from './otelApi.js';

/**
 * A low-cardinality `error.type` for what was thrown: a completion failure's kind, an agentlog
 * error's code, the kind an HTTP status maps to, else the error's name (`_OTHER` without one).
 */
export function errorType(error: unknown): string {
  if (error instanceof CompletionError) return error.kind;
  if (isAgentlogError(error)) return error.code;
  const kind = failureKindOfThrown(error);
  if (kind !== undefined) return kind;
  const { name } = (error ?? {}) as { name?: unknown };
  return typeof name === 'string' && name !== '' ? name : '_OTHER';
}

/** The `error.type` of a rejected run: the error's code (`completionFailed`, `aborted`, ...). */
export function runErrorType(error: unknown): string {
  return isAgentlogError(error) ? error.code : errorType(error);
}

/**
 * Marks a span failed: status ERROR with the message masked (SPEC RPL-3: the model's secrets,
 * bearer tokens and `sk-` keys), and `error.type`. No stack or cause is recorded.
 */
export function markFailed(
  span: Span,
  type: string,
  error: unknown,
  secrets: readonly string[],
): void {
  span.setAttribute('error.type', type);
  span.setStatus({
    code: otelApi.SpanStatusCode.ERROR,
    message: secretMasker(secrets)(describeThrown(error)),
  });
}
