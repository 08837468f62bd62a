import { AgentAtCapError } from '../errors/agentAtCapError.js';
import type { AppendOptions } from '../ports/eventStore.js';

/**
 * The agent name whose cap an append is judged against (SPEC WRK-10), or undefined when none is:
 * only a claim whose work entry leaves the stream `running` takes a place under a cap (a claim
 * that stops a run whose process died takes none). The name is the entry's, else the one the
 * stream's index entry holds (`stored`), as the store's upsert keeps it.
 */
export function cappedAgentOf(
  options: Pick<AppendOptions, 'claim' | 'work'>,
  stored: string | null | undefined,
): string | undefined {
  if (options.claim === undefined || options.work?.status !== 'running') return undefined;
  return options.work.agent ?? stored ?? undefined;
}

/**
 * Judges a claim of a run of `agent` against its cap (SPEC WRK-10), inside the store's transaction
 * that appends the claim: throws `AgentAtCapError` when `running`, the agent's other runs holding a
 * live lease by the store's clock (the claiming stream left out), reached `cap`. An agent without a
 * cap (`undefined` or `null`) passes. Every store with a work index calls it after `judgeFence`
 * and the revision check, so a stale holder still learns that it lost the run; nothing is written
 * when it throws.
 */
export function judgeCap(
  streamId: string,
  agent: string,
  cap: number | null | undefined,
  running: number,
): void {
  if (cap === undefined || cap === null || running < cap) return;
  throw new AgentAtCapError(streamId, agent, cap, running);
}
