import { AgentlogError } from './agentlogError.js';

/**
 * An event that the stream cannot take (SPEC EVT-4/EVT-5): unknown type, malformed data, or a
 * fact that contradicts the state. Names the event and its revision.
 */
export class InvalidEventError extends AgentlogError<'invalidEvent'> {
  readonly eventType: string;
  readonly revision: number | undefined;
  /** What is wrong with the event, without where it is. */
  readonly problem: string;
  /** The stream (and the store, when it has a label) the event was read from. */
  readonly streamId: string | undefined;
  readonly store: string | undefined;

  constructor(
    eventType: string,
    revision: number | undefined,
    problem: string,
    where: { readonly streamId?: string; readonly store?: string } = {},
  ) {
    const at = revision === undefined ? '' : ` at revision ${revision}`;
    const stream =
      where.streamId === undefined
        ? ''
        : `stream ${where.streamId}${where.store === undefined ? '' : ` of ${where.store}`}: `;
    super('invalidEvent', `${stream}event ${eventType}${at} is invalid: ${problem}`);
    this.eventType = eventType;
    this.revision = revision;
    this.problem = problem;
    this.streamId = where.streamId;
    this.store = where.store;
  }

  /** The same error, naming the stream and the store it was read from (SPEC EVT-4). */
  static within(error: unknown, streamId: string, store: string | undefined): unknown {
    if (!(error instanceof InvalidEventError) || error.streamId !== undefined) return error;
    return new InvalidEventError(error.eventType, error.revision, error.problem, {
      streamId,
      ...(store === undefined ? {} : { store }),
    });
  }
}
