import type { EventStore } from '../ports/eventStore.js';
import { giveCommand, type CommandResult, type OutsideOptions } from './giveCommand.js';

/**
 * Asks the run in progress on a stream to stop, from any process (SPEC HITL-12): appends a
 * `StopRequested`. The live run honours it at its next step boundary and ends with
 * `other(reason)`, its `AgentStopped` naming `by`. A stream with no run in progress is refused
 * with `notRunning` and nothing is written.
 * Returns what it appended and the new state.
 */
export async function requestStop(
  store: EventStore,
  streamId: string,
  request: { readonly reason: string; readonly by?: string } & OutsideOptions,
): Promise<CommandResult> {
  const { reason, by, ...options } = request;
  return giveCommand(
    store,
    streamId,
    {
      kind: 'requestStop',
      reason,
      ...(by === undefined ? {} : { by }),
    },
    options,
  );
}
