import { AgentError } from '../errors/agentError.js';
import { isAgentlogError } from '../errors/agentlogError.js';
import { describeThrown } from '../errors/toolError.js';

/**
 * A store's failure as the caller gets it: an agentlog error passes as it is (a conflict, an
 * invalid event); anything else the driver threw becomes `storeUnavailable`, with the driver's
 * error as its cause, naming the stream and what failed.
 */
export function storeFault(error: unknown, streamId: string, what: string): Error {
  if (isAgentlogError(error)) return error;
  return new AgentError(
    'storeUnavailable',
    `stream ${streamId}: the store failed to ${what}: ${describeThrown(error)}`,
    { cause: error },
  );
}
