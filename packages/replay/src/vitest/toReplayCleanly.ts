import type {} from 'vitest';
import type { AgentBuilder, StreamEvent } from '@agentlog/core';
import { divergenceText, replaySession, type ExpectReplayOptions } from './expectReplay.js';

/**
 * A vitest matcher: `await expect('session.jsonl').toReplayCleanly(() => builder())`. Its failure
 * message is the divergence with its diff. Add it with `expect.extend(replayMatchers)`.
 */
export async function toReplayCleanly(
  this: { readonly isNot?: boolean },
  received: string | readonly StreamEvent[],
  agent: () => AgentBuilder,
  options: ExpectReplayOptions = {},
): Promise<{ pass: boolean; message: () => string }> {
  const result = await replaySession(received, agent, options);
  const name = typeof received === 'string' ? received : 'the session';
  return {
    pass: result.ok,
    message: () =>
      result.ok
        ? `expected ${name} to diverge, but it replays cleanly`
        : divergenceText(name, result),
  };
}

/** The matchers of `@agentlog/replay/vitest`, for `expect.extend`. */
export const replayMatchers = { toReplayCleanly };

declare module 'vitest' {
  interface Assertion<T> {
    /** The session replays as recorded (SPEC RPL-2); fails with the divergence and its diff. */
    toReplayCleanly(agent: () => AgentBuilder, options?: ExpectReplayOptions): Promise<T>;
  }
  interface AsymmetricMatchersContaining {
    toReplayCleanly(agent: () => AgentBuilder, options?: ExpectReplayOptions): unknown;
  }
}
