import { AgentError } from '../errors/agentError.js';
import type { RunCall, RunWrapper } from '../api/runWrapper.js';

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
