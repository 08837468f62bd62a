import { AgentlogError } from './agentlogError.js';

/**
 * A claim of a stream's run was refused by the store (SPEC WRK-10): the stream's agent name is at
 * its cap, the number of its runs that may hold a live lease at once across all workers, counted
 * by the store in the claim's transaction and on its clock. Nothing of the refused append was
 * stored; the run may be claimed once one of the agent's runs ends or its lease lapses.
 */
export class AgentAtCapError extends AgentlogError<'agentAtCap'> {
  readonly streamId: string;
  /** The agent name whose cap was reached. */
  readonly agent: string;
  /** Its cap, as the store holds it. */
  readonly cap: number;
  /** How many other runs of the agent held a live lease when the claim was judged. */
  readonly running: number;

  constructor(streamId: string, agent: string, cap: number, running: number) {
    super(
      'agentAtCap',
      `stream ${streamId}: agent ${agent} is at its cap of ${cap} ${cap === 1 ? 'run' : 'runs'} at once ` +
        `(${running} running with a live lease, counted by the store across all workers); ` +
        'the store refused the claim and nothing was written',
    );
    this.streamId = streamId;
    this.agent = agent;
    this.cap = cap;
    this.running = running;
  }
}
