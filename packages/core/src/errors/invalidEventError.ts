import { AgentlogError } from './agentlogError.js';

/**
 * An event that the stream cannot take (SPEC EVT-4/EVT-5): unknown type, malformed data, or a
 * fact that contradicts the state. Names the event and its revision.
 */
export class InvalidEventError extends AgentlogError<'invalidEvent'> {
  readonly eventType: string;
  readonly revision: number | undefined;

  constructor(eventType: string, revision: number | undefined, problem: string) {
    const at = revision === undefined ? '' : ` at revision ${revision}`;
    super('invalidEvent', `event ${eventType}${at} is invalid: ${problem}`);
    this.eventType = eventType;
    this.revision = revision;
  }
}
