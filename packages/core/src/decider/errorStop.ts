import { isAgentlogError } from '../errors/agentlogError.js';
import { describeThrown } from '../errors/toolError.js';
import type { StopCandidate } from './runCursor.js';

/**
 * The stop that ends a run a failure cut short (SPEC LOOP-8, LOOP-10): stop reason `error` with
 * the failure's message, and cause `aborted` when the caller's signal aborted it, `error`
 * otherwise.
 */
export function errorStop(error: unknown): StopCandidate {
  const message = error instanceof Error ? error.message : describeThrown(error);
  const aborted = isAgentlogError(error) && error.code === 'aborted';
  return { reason: { kind: 'error', message }, cause: aborted ? 'aborted' : 'error' };
}
