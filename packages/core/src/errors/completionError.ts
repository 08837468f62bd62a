import { AgentError } from './agentError.js';

/** Every kind of completion failure, listed once (SPEC LOOP-12). */
export const COMPLETION_FAILURE_KINDS = [
  'authentication',
  'rateLimited',
  'badRequest',
  'serverError',
  'network',
  'aborted',
  'badResponse',
  'other',
] as const;

/**
 * Why a completion failed (SPEC LOOP-12): the key was refused, the provider rate-limited the
 * call, it refused the request, it failed, it could not be reached, the call was aborted, or its
 * answer was not a response. `other` is a failure nothing could classify (a model of your own
 * that threw).
 */
export type CompletionFailureKind = (typeof COMPLETION_FAILURE_KINDS)[number];

/**
 * A completion that failed: `code` stays `completionFailed`, `kind` says which way, with the
 * HTTP `status` and `retryAfterMs` when the provider gives them. The provider's message is in
 * `message`; a key never is.
 */
export class CompletionError extends AgentError {
  readonly kind: CompletionFailureKind;
  readonly status: number | undefined;
  readonly retryAfterMs: number | undefined;

  constructor(
    kind: CompletionFailureKind,
    message: string,
    options: {
      readonly cause?: unknown;
      readonly status?: number;
      readonly retryAfterMs?: number;
    } = {},
  ) {
    super('completionFailed', message, options.cause === undefined ? {} : { cause: options.cause });
    this.kind = kind;
    this.status = options.status;
    this.retryAfterMs = options.retryAfterMs;
  }
}

/** The kind of a failure with an HTTP status (SPEC LOOP-12). */
export function failureKindOfStatus(status: number): CompletionFailureKind {
  if (status === 401 || status === 403) return 'authentication';
  if (status === 429) return 'rateLimited';
  if (status >= 500) return 'serverError';
  if (status >= 400) return 'badRequest';
  return 'other';
}

/**
 * The kind a thrown value says of itself (SPEC LOOP-12): `aborted` for an `AbortError`, else the
 * kind of its HTTP `status`; `undefined` when it says neither.
 */
export function failureKindOfThrown(error: unknown): CompletionFailureKind | undefined {
  const { status, name } = (error ?? {}) as { status?: unknown; name?: unknown };
  if (name === 'AbortError') return 'aborted';
  return typeof status === 'number' ? failureKindOfStatus(status) : undefined;
}

/**
 * How long to wait before retrying, from `retry-after-ms` or `retry-after` (seconds or an HTTP
 * date) response headers; `undefined` when they say nothing usable.
 */
export function retryAfterMsOf(
  header: (name: string) => string | null | undefined,
  now: () => number = Date.now,
): number | undefined {
  const ms = Number(header('retry-after-ms'));
  if (Number.isFinite(ms) && ms >= 0 && header('retry-after-ms') != null) return ms;
  const after = header('retry-after');
  if (after == null || after === '') return undefined;
  const seconds = Number(after);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const at = Date.parse(after);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now());
}
