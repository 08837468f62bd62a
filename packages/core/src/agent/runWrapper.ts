import { AgentError } from '../errors/agentError.js';
import type { RunMode } from '../events/agentEvent.js';
import type { RunOptions } from '../loop/runScope.js';
import type { Agent } from './agent.js';

/** Which run a {@link RunWrapper} wraps: its agent, the command that started it, its options. */
export interface RunCall {
  readonly agent: Agent;
  readonly mode: RunMode;
  readonly options: RunOptions;
}

/**
 * Code around each run (`query`, `queryOnce`, `run`, `runOnce`), such as a tracing span: it must
 * call `run` once and settle as `run` settles (resolve, or reject with its error). It sees the
 * run, never changes it: the run's events are the same with and without it.
 */
export type RunWrapper = (run: () => Promise<void>, call: RunCall) => Promise<void>;

/** Runs `run` inside every wrapper, the first added outermost; each must call `run` once. */
export function wrapRun(
  wrappers: readonly RunWrapper[],
  run: () => Promise<void>,
  call: RunCall,
): Promise<void> {
  return wrappers.reduceRight<() => Promise<void>>(
    (inner, wrapper) => () => callOnce(wrapper, inner, call),
    run,
  )();
}

async function callOnce(
  wrapper: RunWrapper,
  inner: () => Promise<void>,
  call: RunCall,
): Promise<void> {
  let calls = 0;
  await wrapper(() => {
    calls += 1;
    if (calls > 1) {
      return Promise.reject(
        new AgentError('invalidConfiguration', 'a run wrapper called run() twice'),
      );
    }
    return inner();
  }, call);
  if (calls === 0) {
    throw new AgentError('invalidConfiguration', 'a run wrapper settled without calling run()');
  }
}
