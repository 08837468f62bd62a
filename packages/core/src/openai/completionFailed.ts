import type { APIError as OpenAiApiError } from 'openai';
import {
  CompletionError,
  failureKindOfStatus,
  retryAfterMsOf,
  type CompletionFailureKind,
} from '../errors/completionError.js';
import { REDACTED } from '../support/secretMasker.js';
import { maskDeep } from './maskDeep.js';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
} from './openAiDriver.js';

/** Where and how often the adapter asked before it gave up, for the error's message. */
export interface AttemptsMade {
  /** The host (and port) of the base URL: never its path, query or credentials. */
  readonly endpoint: string;
  readonly attempts: number;
  readonly timeoutMs: number;
}

/**
 * An SDK error as `completionFailed`, with the secrets masked in the message and the cause. A
 * timeout says `no answer within <timeout> ms`; a failure to reach the endpoint, a timeout, and a
 * failure after retries name the endpoint and the number of attempts:
 * `openai: 500 busy (api.example.com, 3 attempts)`. A first refusal keeps the provider's words
 * alone: `openai: 401 Incorrect API key provided`.
 */
export function completionFailed(
  error: unknown,
  mask: (text: string) => string,
  made?: AttemptsMade,
): CompletionError {
  const raw = error instanceof Error ? error.message : String(error);
  const api =
    error instanceof APIError
      ? (error as OpenAiApiError<number | undefined, Headers | undefined>)
      : undefined;
  const code: number | undefined = api?.status;
  const status = code !== undefined ? `${code} ` : '';
  const timedOut = error instanceof APIConnectionTimeoutError;
  const text =
    timedOut && made !== undefined
      ? `no answer within ${made.timeoutMs} ms`
      : mask(status !== '' && raw.startsWith(status) ? raw.slice(status.length) : raw);
  const kind = kindOf(error);
  const where =
    made !== undefined && (kind === 'network' || made.attempts > 1)
      ? ` (${mask(made.endpoint)}, ${made.attempts} attempt${made.attempts === 1 ? '' : 's'})`
      : '';
  const headers: Headers | undefined = api?.headers;
  const retryAfterMs =
    headers === undefined ? undefined : retryAfterMsOf((name) => headers.get(name));
  return new CompletionError(kind, `openai: ${status}${text}${where}`, {
    cause: safeCause(error, mask),
    ...(code === undefined ? {} : { status: code }),
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  });
}

/** The kind of an SDK failure (SPEC LOOP-12). */
function kindOf(error: unknown): CompletionFailureKind {
  if (error instanceof APIUserAbortError) return 'aborted';
  if (error instanceof APIConnectionError) return 'network';
  const status = error instanceof APIError ? (error.status as number | undefined) : undefined;
  if (status !== undefined) return failureKindOfStatus(status);
  if (error instanceof Error && error.name === 'AbortError') return 'aborted';
  return 'other';
}

// Response headers that carry credentials or sessions: dropped to `[redacted]` whatever they hold.
const credentialHeaders = new Set([
  'authorization',
  'proxy-authorization',
  'x-api-key',
  'api-key',
  'cookie',
  'set-cookie',
]);

/**
 * A rebuilt copy of the thrown error, never the error itself: the SDK error keeps the response
 * headers and body, where a server may echo the key. The copy has the same SDK class, status and
 * request id; its message, body, header values, stack and nested causes are masked.
 */
function safeCause(error: unknown, mask: (text: string) => string, depth = 0): Error {
  if (!(error instanceof Error)) return new Error(mask(String(error)));
  const message = mask(error.message);
  const apiError: OpenAiApiError | undefined = error instanceof APIError ? error : undefined;
  const status = apiError?.status;
  let copy: Error;
  if (error instanceof APIConnectionTimeoutError) {
    copy = new APIConnectionTimeoutError({ message });
  } else if (error instanceof APIUserAbortError) {
    copy = new APIUserAbortError({ message });
  } else if (error instanceof APIConnectionError) {
    copy = new APIConnectionError({ message, ...nestedCause(error, mask, depth) });
  } else if (apiError !== undefined && status !== undefined) {
    const prefix = `${status} `;
    copy = APIError.generate(
      status,
      { error: maskDeep(apiError.error, mask) },
      message.startsWith(prefix) ? message.slice(prefix.length) : message,
      safeHeaders(apiError.headers, mask),
    );
  } else {
    copy = new Error(message, nestedCause(error, mask, depth));
    copy.name = mask(error.name);
    const { code } = error as { code?: unknown };
    if (typeof code === 'string' || typeof code === 'number') {
      Object.assign(copy, { code: typeof code === 'string' ? mask(code) : code });
    }
  }
  if (error.stack !== undefined) copy.stack = mask(error.stack);
  return copy;
}

function nestedCause(
  error: Error,
  mask: (text: string) => string,
  depth: number,
): { cause?: Error } {
  return error.cause === undefined || depth >= 5
    ? {}
    : { cause: safeCause(error.cause, mask, depth + 1) };
}

function safeHeaders(headers: Headers | undefined, mask: (text: string) => string): Headers {
  const safe = new Headers();
  headers?.forEach((value, name) => {
    safe.append(name, credentialHeaders.has(name.toLowerCase()) ? REDACTED : mask(value));
  });
  return safe;
}
