import { AgentError } from '../errors/agentError.js';
import { describeThrown } from '../errors/toolError.js';

/**
 * The caller's abort signal ended the run (SPEC LOOP-10): `code` is `aborted`, the signal's
 * reason is the `cause`.
 */
export function runAborted(signal: AbortSignal, when: string): AgentError {
  return new AgentError(
    'aborted',
    `the run was aborted ${when}: ${describeThrown(signal.reason)}`,
    {
      cause: signal.reason,
    },
  );
}

/** Throws `runAborted` when the signal has fired. */
export function throwIfAborted(signal: AbortSignal | undefined, when: string): void {
  if (signal?.aborted === true) throw runAborted(signal, when);
}
