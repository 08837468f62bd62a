import { AsyncLocalStorage } from 'node:async_hooks';
import type { Context, Span } from '@opentelemetry/api';
import { otelApi } from './otelApi.js';

/** What a traced run shares with the spans under it. */
export interface RunTrace {
  /** The secrets of the model the run asked last, to mask error messages with. */
  secrets: () => readonly string[];
}

interface Scope {
  readonly span: Span;
  readonly run: RunTrace;
}

const scopes = new AsyncLocalStorage<Scope>();

/**
 * Runs `work` with `span` as the parent of the spans it starts. Parents are passed explicitly to
 * `startSpan`, so nesting works without a registered context manager.
 */
export function withinSpan<T>(span: Span, run: RunTrace, work: () => T): T {
  return scopes.run({ span, run }, work);
}

/** The traced run the caller is in, if any. */
export function currentRun(): RunTrace | undefined {
  return scopes.getStore()?.run;
}

/** The context to start a span in: under the innermost traced span, else the active context. */
export function parentContext(): Context {
  const active = otelApi.context.active();
  const scope = scopes.getStore();
  return scope === undefined ? active : otelApi.trace.setSpan(active, scope.span);
}
