import { AgentlogError } from './agentlogError.js';

/**
 * A claim of a stream's run was refused by the store (SPEC WRK-4): another owner holds a live
 * lease on it, by the store's clock. Nothing of the refused append was stored.
 */
export class RunOwnedError extends AgentlogError<'runOwned'> {
  readonly streamId: string;
  /** The owner whose lease is live, when the store knows it. */
  readonly owner: string | undefined;
  /** When that lease ends by the store's clock (ISO time), when it ends at all. */
  readonly leaseUntil: string | undefined;

  constructor(streamId: string, owner: string | undefined, leaseUntil: string | undefined) {
    super(
      'runOwned',
      `stream ${streamId} has a live run owned by ${owner ?? 'another process'}` +
        (leaseUntil === undefined
          ? ''
          : ` (its lease ends at ${leaseUntil} by the store's clock)`) +
        '; the store refused the claim and nothing was written',
    );
    this.streamId = streamId;
    this.owner = owner;
    this.leaseUntil = leaseUntil;
  }
}
