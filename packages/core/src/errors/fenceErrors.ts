import type { AgentAtCapError } from './agentAtCapError.js';
import { isAgentlogError } from './agentlogError.js';
import type { LeaseLostError } from './leaseLostError.js';
import type { RunOwnedError } from './runOwnedError.js';

/** True for a `LeaseLostError` from any copy of the package (SPEC WRK-8). */
export function isLeaseLost(error: unknown): error is LeaseLostError {
  return isAgentlogError(error) && error.code === 'leaseLost';
}

/** True for a `RunOwnedError` from any copy of the package (SPEC WRK-4). */
export function isRunOwned(error: unknown): error is RunOwnedError {
  return isAgentlogError(error) && error.code === 'runOwned';
}

/** True for an `AgentAtCapError` from any copy of the package (SPEC WRK-10). */
export function isAgentAtCap(error: unknown): error is AgentAtCapError {
  return isAgentlogError(error) && error.code === 'agentAtCap';
}
