import type { StreamEvent } from '../ports/eventStore.js';
import { initialState, type AgentState } from './agentState.js';
import { mapEntries } from '../support/versionedMap.js';
import { noAnswers, withAnswer, type AnsweredView } from './answeredCalls.js';
import { decodeEvent } from './decodeEvent.js';
import { foldChecked } from './foldEvents.js';
import { editableDraft, publish, type StateDraft } from './stateDraft.js';

/**
 * Decodes and checks stored events exactly as `foldStream` does (their schemas, SPEC EVT-4, the
 * revisions: the same errors, with the same texts) and keeps only what those checks and the
 * stream's status need: a **checked state**. Its memory does not grow with the history or the
 * tool calls' arguments and outputs, only by a bare id and status per answered call, so a stream
 * of any length can be checked page by page: `state = checkStream(page, state)`.
 *
 * A checked state has the scalar fields of the full state (status, stop reason and cause,
 * revision, runs, queued texts, pending decisions, stop and run requests, …), equal to those of
 * `foldStream`; its `toolCalls` are the calls not answered yet; reading its `history` or
 * `failureCounts` throws; `historyLength` counts the history, the other history queries
 * (`lastMessage`, `lastBatch`, …) see no message. Folding onto it (`foldEvents`, `evolve`, `checkStream`) gives a checked state again.
 * `state` itself is not changed; started from a full state, the result is a checked state.
 */
export function checkStream(
  stored: readonly StreamEvent[],
  state: AgentState = initialState,
): AgentState {
  const current = editableDraft(state);
  current.answered ??= answersOf(current);
  for (const storedEvent of stored) foldChecked(current, decodeEvent(storedEvent));
  return publish(current);
}

/** The answered calls of a full state's draft, as a checking draft keeps them: O(calls), once. */
function answersOf(draft: StateDraft): AnsweredView {
  let answered = noAnswers();
  for (const [id, { status }] of mapEntries(draft.toolCalls)) {
    if (status === 'completed' || status === 'failed') answered = withAnswer(answered, id, status);
  }
  return answered;
}
