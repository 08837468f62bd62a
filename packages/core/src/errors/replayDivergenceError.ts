import { AgentlogError } from './agentlogError.js';

/**
 * A replay that did not go as recorded (SPEC RPL-1, RPL-2): `index` is the position of the first
 * difference (the completion's number, or the event's revision), `diff` a readable comparison.
 */
export class ReplayDivergenceError extends AgentlogError<'replayDivergence'> {
  readonly index: number;
  readonly expected: unknown;
  readonly actual: unknown;
  readonly diff: string;

  constructor(what: string, index: number, expected: unknown, actual: unknown, diff: string) {
    super('replayDivergence', `${what} diverges at ${index}:\n${diff}`);
    this.index = index;
    this.expected = expected;
    this.actual = actual;
    this.diff = diff;
  }
}
