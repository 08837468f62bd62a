import type { EventStore } from '../ports/eventStore.js';
import { giveCommand, type CommandResult, type OutsideOptions } from './giveCommand.js';

/** What `requestRun` asks for (SPEC WRK-1). */
export interface RunRequestOptions extends OutsideOptions {
  /** The stream the run is for; a new id starts a new stream. */
  readonly streamId: string;
  /** The registered agent name a worker builds the agent under (`createWorker`'s `agents`). */
  readonly agent: string;
  /** The run's query text, queued when a worker starts the run. */
  readonly input?: string;
  /** Who asked, for the audit. */
  readonly by?: string;
}

/**
 * Records that a run is wanted (SPEC WRK-1): appends `RunRequested` with the registered agent
 * name, and the store's work index lists the stream as `requested`, so a worker that has the
 * agent takes it, first in, first out. No agent needs to be in memory. Refused while a run is in
 * progress or a request is pending (`alreadyRunning`), for an input that is
 * not a text (`invalidConfiguration`), and without input when there is nothing to run
 * (`nothingToRun`); nothing is written then.
 * Returns what it appended and the new state.
 */
export async function requestRun(
  store: EventStore,
  request: RunRequestOptions,
): Promise<CommandResult> {
  const { streamId, agent, input, by, ...options } = request;
  return giveCommand(
    store,
    streamId,
    {
      kind: 'requestRun',
      agent,
      ...(input === undefined ? {} : { input }),
      ...(by === undefined ? {} : { by }),
    },
    options,
  );
}
