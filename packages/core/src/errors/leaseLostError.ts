import { AgentlogError } from './agentlogError.js';

/**
 * A run lost its stream (SPEC WRK-4, WRK-8): another process claimed it since (the append's
 * fencing token is not the stream's any more), or its lease could not be renewed for longer than
 * the lease. The run appends nothing more, not even its stop.
 */
export class LeaseLostError extends AgentlogError<'leaseLost'> {
  readonly streamId: string;
  /** The fencing token the run holds. */
  readonly fence: number | undefined;
  /** The stream's token now, when the store said it. */
  readonly current: number | undefined;

  constructor(
    streamId: string,
    fence: number | undefined,
    current: number | undefined,
    message = `stream ${streamId}: the run's claim (fencing token ${String(fence)}) is no longer the stream's` +
      (current === undefined ? '' : ` (another process claimed it with token ${current})`) +
      '; the store refused the append and nothing was written',
  ) {
    super('leaseLost', message);
    this.streamId = streamId;
    this.fence = fence;
    this.current = current;
  }
}
