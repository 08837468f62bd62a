import { foldStream, isAgentlogError } from '@agentlog/core';
import { replayStream } from '@agentlog/replay';
import type { Session } from './collectSessions.js';
import type { AgentModule } from './loadAgentModule.js';

/** How one session replayed: as recorded, diverged (first line and diff), or not at all. */
export type SessionOutcome =
  | { readonly kind: 'replayed' }
  | { readonly kind: 'diverged'; readonly summary: string; readonly diff: string }
  | { readonly kind: 'error'; readonly message: string };

/**
 * Replays one session with the agent the `--agent` module builds for it. Bad input (an unreadable
 * or malformed file, contradictory events, no agent for it, an agent that cannot be built) comes
 * back as an `error` outcome with a one-line message; nothing is thrown.
 */
export async function replaySession(
  session: Session,
  agents: AgentModule,
  tools: 'live' | 'recorded',
): Promise<SessionOutcome> {
  try {
    const events = await session.load();
    foldStream(events);
    const builder = agents.agentFor(session.key, events);
    if (builder === undefined) return error('the --agent module has no agent for this session');
    const streamId = agents.streamIdFor?.(session.key);
    const result = await replayStream(events, {
      agent: () => builder,
      tools,
      ...(streamId === undefined ? {} : { streamId }),
    });
    return result.ok ? { kind: 'replayed' } : diverged(result.divergence.message);
  } catch (caught) {
    const message = caught instanceof Error ? caught.message : String(caught);
    if (isAgentlogError(caught) && caught.code === 'replayDivergence') return diverged(message);
    return error(message.split('\n')[0] ?? '');
  }
}

function diverged(message: string): SessionOutcome {
  const [summary = '', ...diff] = message.split('\n');
  return { kind: 'diverged', summary, diff: diff.join('\n') };
}

function error(message: string): SessionOutcome {
  return { kind: 'error', message };
}
