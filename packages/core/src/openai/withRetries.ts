import type { APIError as OpenAiApiError } from 'openai';
import { retryAfterMsOf } from '../errors/completionError.js';
import type { Logger } from '../ports/logger.js';
import { completionFailed } from './completionFailed.js';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
} from './openAiDriver.js';

/** How the adapter asks: how often, how long each attempt may take, where it reports retries. */
export interface RetryPlan {
  /** How many times a failed attempt is asked again: `maxRetries + 1` attempts at most. */
  readonly maxRetries: number;
  /** How long one attempt may wait for the answer to start, in milliseconds. */
  readonly timeoutMs: number;
  /** The host (and port) of the base URL, for the log lines and the final error. */
  readonly endpoint: string;
  readonly model: string;
  readonly logger: Logger;
  /** Masks the adapter's secrets in the provider's words before they are logged or thrown. */
  readonly mask: (text: string) => string;
  readonly signal?: AbortSignal | undefined;
}

/**
 * The longest wait a `retry-after` is honoured for. A provider that asks for longer is not asked
 * again: the `rateLimited` error carries its `retryAfterMs`, for the caller to schedule.
 */
export const MAX_RETRY_AFTER_MS = 60_000;

/**
 * Runs `attempt` (one SDK request, made with `maxRetries: 0`) and asks again, as the openai SDK
 * would, after a timeout, a connection error, a 408, 409, 429 or 5xx (or as `x-should-retry`
 * says): after `retry-after-ms` or `retry-after` when the response gives one, else after 0.5 s,
 * 1 s, 2 s, … up to 8 s, less up to 25% jitter. Each retry is logged through `plan.logger`
 * with its reason and wait; the last failure becomes a `CompletionError` naming the endpoint and
 * the attempts. An abort through `plan.signal` ends the wait at once and is rethrown as it is.
 */
export async function withRetries<T>(
  attempt: (retry: number) => Promise<T>,
  plan: RetryPlan,
): Promise<T> {
  for (let retry = 0; ; retry += 1) {
    try {
      return await attempt(retry);
    } catch (error) {
      if (plan.signal?.aborted === true) throw error;
      const next = retry < plan.maxRetries ? nextAttempt(error, retry, plan) : undefined;
      if (next === undefined) {
        throw completionFailed(error, plan.mask, {
          endpoint: plan.endpoint,
          attempts: retry + 1,
          timeoutMs: plan.timeoutMs,
        });
      }
      const attempts = plan.maxRetries + 1;
      plan.logger.warn(
        `openai: attempt ${retry + 1} of ${attempts} to ${plan.endpoint} failed (${next.why}); ` +
          `retrying in ${next.waitMs} ms${next.asked ? ` as ${next.asked} asks` : ''}`,
        {
          model: plan.model,
          endpoint: plan.endpoint,
          attempt: retry + 1,
          attempts,
          reason: next.reason,
          ...(next.status === undefined ? {} : { status: next.status }),
          waitMs: next.waitMs,
        },
      );
      await pause(next.waitMs, plan.signal);
      plan.signal?.throwIfAborted();
    }
  }
}

interface NextAttempt {
  readonly reason: 'timeout' | 'connection' | 'status';
  readonly status?: number;
  /** The reason in words, masked: `429 Rate limit reached`, `no answer within 60000 ms`. */
  readonly why: string;
  readonly waitMs: number;
  /** The header that set the wait, when one did. */
  readonly asked?: 'retry-after-ms' | 'retry-after';
}

/** The retry after `error`, or `undefined` when it is not one to retry. */
function nextAttempt(error: unknown, retry: number, plan: RetryPlan): NextAttempt | undefined {
  if (error instanceof APIUserAbortError) return undefined;
  const backoff = backoffMs(retry);
  if (error instanceof APIConnectionTimeoutError) {
    return { reason: 'timeout', why: `no answer within ${plan.timeoutMs} ms`, waitMs: backoff };
  }
  if (error instanceof APIConnectionError) {
    return { reason: 'connection', why: 'connection error', waitMs: backoff };
  }
  if (!(error instanceof APIError)) return undefined;
  const api = error as OpenAiApiError<number | undefined, Headers | undefined>;
  const { status, headers } = api;
  if (status === undefined || !isRetryable(status, headers)) return undefined;
  const why = oneLine(plan.mask(api.message));
  const header = (name: string) => headers?.get(name);
  const inMs = retryAfterMsOf((name) => (name === 'retry-after-ms' ? header(name) : undefined));
  const asked = inMs ?? retryAfterMsOf(header);
  if (asked === undefined) return { reason: 'status', status, why, waitMs: backoff };
  if (asked > MAX_RETRY_AFTER_MS) {
    plan.logger.warn(
      `openai: ${plan.endpoint} answered ${status} and asks to wait ${asked} ms, longer than ` +
        `the ${MAX_RETRY_AFTER_MS} ms the adapter waits; not retried`,
      { model: plan.model, endpoint: plan.endpoint, status, retryAfterMs: asked },
    );
    return undefined;
  }
  return {
    reason: 'status',
    status,
    why,
    waitMs: Math.round(asked),
    asked: inMs === undefined ? 'retry-after' : 'retry-after-ms',
  };
}

/** As the SDK decides: `x-should-retry` first, then 408, 409, 429 and 5xx. */
function isRetryable(status: number, headers: Headers | undefined): boolean {
  const said = headers?.get('x-should-retry');
  if (said === 'true') return true;
  if (said === 'false') return false;
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** The SDK's backoff: 0.5 s doubled per retry, at most 8 s, less up to 25% jitter. */
function backoffMs(retry: number): number {
  const seconds = Math.min(0.5 * 2 ** retry, 8);
  return Math.round(seconds * (1 - Math.random() * 0.25) * 1000);
}

/** The first line of a provider's message, at most 200 characters. */
function oneLine(text: string): string {
  const line = text.split('\n', 1)[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

/** Resolves after `ms`, or at once when `signal` aborts. */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted === true) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
