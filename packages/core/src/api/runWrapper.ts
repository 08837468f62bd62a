import type { RunMode } from '../events/agentEvent.js';
import type { RunOptions } from './runOptions.js';
import type { AgentHandle } from './agentHandle.js';

/** Which run a {@link RunWrapper} wraps: its agent, the command that started it, its options. */
export interface RunCall {
  /** What hooks see of the agent: its stream, state and stop reason. */
  readonly agent: AgentHandle;
  readonly mode: RunMode;
  readonly options: RunOptions;
}

/**
 * Code around each run (`query`, `queryOnce`, `run`, `runOnce`), such as a tracing span: it must
 * call `run` once and settle as `run` settles (resolve, or reject with its error). It sees the
 * run, never changes it: the run's events are the same with and without it.
 */
export type RunWrapper = (run: () => Promise<void>, call: RunCall) => Promise<void>;
