import { InvalidEventError } from '../errors/invalidEventError.js';
import type { StreamEvent } from '../ports/eventStore.js';
import type { AgentEvent } from './agentEvent.js';
import { initialState, type AgentState } from './agentState.js';
import { checkEvent } from './checkEvent.js';
import { decodeEvent } from './decodeEvent.js';
import { evolve } from './evolve.js';

/** Folds checked events onto `state`; throws `InvalidEventError` at the first contradiction. */
export function foldEvents(
  events: readonly AgentEvent[],
  state: AgentState = initialState,
): AgentState {
  let current = state;
  for (const event of events) {
    const problem = checkEvent(current, event);
    if (problem !== undefined) {
      throw new InvalidEventError(event.type, event.metadata.revision, problem);
    }
    if (event.metadata.revision !== current.revision + 1) {
      throw new InvalidEventError(
        event.type,
        event.metadata.revision,
        `expected revision ${current.revision + 1}: the stream has a gap or is out of order`,
      );
    }
    current = evolve(current, event);
  }
  return current;
}

/** Decodes, checks and folds stored events (SPEC EVT-4): what building an agent on a stream does. */
export function foldStream(
  stored: readonly StreamEvent[],
  state: AgentState = initialState,
): {
  readonly state: AgentState;
  readonly events: AgentEvent[];
} {
  const events = stored.map(decodeEvent);
  return { state: foldEvents(events, state), events };
}
