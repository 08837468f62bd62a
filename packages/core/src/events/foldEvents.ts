import { InvalidEventError } from '../errors/invalidEventError.js';
import type { StreamEvent } from '../ports/eventStore.js';
import type { AgentEvent } from './agentEvent.js';
import { initialState, type AgentState } from './agentState.js';
import { checkDraft } from './checkEvent.js';
import { decodeEvent } from './decodeEvent.js';
import { foldInto } from './evolve.js';
import { editableDraft, publish } from './stateDraft.js';

/**
 * Folds checked events onto `state` in O(1) per event; throws `InvalidEventError` at the first
 * contradiction. `state` itself is not changed.
 */
export function foldEvents(
  events: readonly AgentEvent[],
  state: AgentState = initialState,
): AgentState {
  const current = editableDraft(state);
  for (const event of events) {
    const problem = checkDraft(current, event);
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
    foldInto(current, event);
  }
  return publish(current);
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
