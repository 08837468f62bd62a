import { AgentlogError } from './agentlogError.js';

/** The ways a run can reject. */
export type AgentErrorCode =
  | 'alreadyRunning'
  | 'unfulfilledToolCalls'
  | 'toolError'
  | 'completionFailed'
  | 'hookFailed'
  | 'nothingToRun'
  | 'invalidFeedback'
  | 'invalidConfiguration'
  | 'storeFailed'
  /** The store could not be reached or failed; the driver's error is the `cause`. */
  | 'storeUnavailable'
  /** A stop was requested for a stream that has no run in progress. */
  | 'notRunning'
  /** The caller's abort signal ended the run (SPEC LOOP-10). */
  | 'aborted';

/** A run, a build or a feedback call that failed; `code` says which way. */
export class AgentError extends AgentlogError<AgentErrorCode> {}
