import type { AgentBuilder, StreamEvent } from '@agentlog/core';
import { replayStream, type ReplayResult } from '../replayStream.js';
import { readSession } from './readSession.js';

/** How a session is replayed in a test. */
export interface ExpectReplayOptions {
  /** Run the real tools, or serve their recorded results (the default). */
  readonly tools?: 'live' | 'recorded';
  /** The recorded stream's id; derived from the session by default. */
  readonly streamId?: string;
}

/** The replay of a session, read from a file or given as events (SPEC RPL-2, RPL-5). */
export async function replaySession(
  session: string | readonly StreamEvent[],
  agent: () => AgentBuilder,
  options: ExpectReplayOptions = {},
): Promise<ReplayResult> {
  const events = await readSession(session);
  return replayStream(events, {
    agent,
    ...(options.tools === undefined ? {} : { tools: options.tools }),
    ...(options.streamId === undefined ? {} : { streamId: options.streamId }),
  });
}

/** The failure text of a divergence: where it is, and its diff. */
export function divergenceText(name: string, result: ReplayResult): string {
  if (result.ok) return `${name} replays cleanly`;
  const { divergence } = result;
  return `${name} diverges: ${divergence.message}\n${divergence.diff}`;
}

/**
 * Replays a recorded session in a test and fails it with the first divergence and its diff
 * (SPEC RPL-2): `await expectReplay('fixtures/session.jsonl', () => myAgentBuilder())`.
 */
export async function expectReplay(
  session: string | readonly StreamEvent[],
  agent: () => AgentBuilder,
  options: ExpectReplayOptions = {},
): Promise<void> {
  const result = await replaySession(session, agent, options);
  if (!result.ok) {
    throw new Error(divergenceText(typeof session === 'string' ? session : 'the session', result));
  }
}
