import type { ExpectedRevision } from '../ports/eventStore.js';
import { AgentlogError } from './agentlogError.js';

/**
 * An append stated a revision the stream no longer has: another writer got there first
 * (SPEC RES-3). Nothing of the failed append was stored.
 */
export class ConcurrencyError extends AgentlogError<'concurrency'> {
  readonly streamId: string;
  readonly expected: ExpectedRevision;
  /** The stream's last revision, or `'noStream'`. */
  readonly actual: number | 'noStream';

  constructor(
    streamId: string,
    expected: ExpectedRevision,
    actual: number | 'noStream',
    message = `stream ${streamId}: the append expected revision ${String(expected)}, but the stream is at ${String(actual)}`,
  ) {
    super('concurrency', message);
    this.streamId = streamId;
    this.expected = expected;
    this.actual = actual;
  }
}
