import { decideCommand, type Command } from '../decider/decideCommand.js';
import { DEFAULT_SETTINGS, type DeciderSettings } from '../decider/deciderSettings.js';
import { workEntry } from '../decider/workStatus.js';
import { ConcurrencyError } from '../errors/concurrencyError.js';
import { InvalidEventError } from '../errors/invalidEventError.js';
import type { AgentEvent } from '../events/agentEvent.js';
import type { AgentState } from '../events/agentState.js';
import { foldOfStream } from '../writer/foldCache.js';
import { StreamWriter } from '../writer/streamWriter.js';
import type { EventStore } from '../ports/eventStore.js';
import { uuidV7 } from '../support/uuidV7.js';

/** How a command given without an agent stamps its events. */
export interface OutsideOptions {
  /** Stamps the events (SPEC EVT-2). Default: the wall clock. */
  readonly clock?: () => Date;
  /** Ids of the events. Default: `uuidV7`. */
  readonly ids?: () => string;
}

/**
 * What a command given from outside an agent appended, and the stream's state after it (as
 * Emmett's command handler returns `{ newState, newEvents }`): a caller never reads the stream
 * again to learn what its command did.
 */
export interface CommandResult {
  /** The events the command appended, in order. */
  readonly events: readonly AgentEvent[];
  /** The fold of the stream with those events. */
  readonly state: AgentState;
}

/** The settings a command needs when no agent is built: only the stream's id matters. */
function outsideSettings(streamId: string): DeciderSettings {
  return { streamId, ...DEFAULT_SETTINGS, tools: new Map() };
}

/**
 * Gives a command to a stream from outside any agent (SPEC HITL-12): folds the stream, lets the
 * decider judge the command, and appends what it decides with the revision it read. If another
 * writer got there first, it reads again and judges again (once more at most), so a decision is
 * never recorded against a state it was not judged on. Needs no model and no tools.
 */
export async function giveCommand(
  store: EventStore,
  streamId: string,
  command: Command,
  options: OutsideOptions & { readonly durable?: boolean } = {},
): Promise<CommandResult> {
  const clock = options.clock ?? (() => new Date());
  const settings = outsideSettings(streamId);
  for (let attempt = 0; ; attempt += 1) {
    const { state } = await foldOfStream(store, streamId, () => undefined);
    const writer = new StreamWriter(
      store,
      streamId,
      clock,
      options.ids ?? uuidV7,
      state,
      () => [],
      // A decision or a stop request during a live run leaves its lease as the run's own appends
      // set it: this command does not know the agent's lease (SPEC WRK-4).
      (folded) => {
        const entry = workEntry(folded, settings);
        return entry.status === 'running' ? undefined : entry;
      },
    );
    const decided = decideCommand(state, settings, command, { ownRun: false });
    try {
      const events = await writer.append(
        decided,
        options.durable === true ? { durable: true } : {},
      );
      return { state: writer.state, events };
    } catch (error) {
      // Another writer got there first. When the writer could not fold its write onto theirs
      // (a decision that lost the race to another for the same call), the command is judged
      // again on what is stored now, so it is refused for what it is (`invalidFeedback`), not
      // as an event that contradicts the stream.
      const lostRace = error instanceof ConcurrencyError || error instanceof InvalidEventError;
      if (!lostRace || attempt > 0) throw error;
    }
  }
}
