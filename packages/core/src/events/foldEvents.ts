import { InvalidEventError } from '../errors/invalidEventError.js';
import type { StreamEvent } from '../ports/eventStore.js';
import type { AgentEvent } from './agentEvent.js';
import { initialState, type AgentState } from './agentState.js';
import { checkDraft } from './checkEvent.js';
import { decodeEvent } from './decodeEvent.js';
import { foldInto } from './evolve.js';
import { editableDraft, publish, type StateDraft } from './stateDraft.js';

/**
 * Folds checked events onto `state` in O(1) per event; throws `InvalidEventError` at the first
 * contradiction. `state` itself is not changed.
 */
export function foldEvents(
  events: readonly AgentEvent[],
  state: AgentState = initialState,
): AgentState {
  const current = editableDraft(state);
  for (const event of events) foldChecked(current, event);
  return publish(current);
}

/** Checks `event` against the draft and its revision against the draft's, then folds it in. */
export function foldChecked(current: StateDraft, event: AgentEvent): void {
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

/**
 * Decodes, checks and folds stored events (SPEC EVT-4): what building an agent on a stream does.
 * One pass, each event decoded and folded before the next; the first bad event in stream order
 * is the error. A decoded event is the stored object itself unless an upcaster changed it (see
 * `decodeEvent`), so `events` holds no second copy of the stream.
 */
export function foldStream(
  stored: readonly StreamEvent[],
  state: AgentState = initialState,
): {
  readonly state: AgentState;
  readonly events: AgentEvent[];
} {
  const current = editableDraft(state);
  const events: AgentEvent[] = [];
  for (const storedEvent of stored) {
    const event = decodeEvent(storedEvent);
    foldChecked(current, event);
    events.push(event);
  }
  return { state: publish(current), events };
}
