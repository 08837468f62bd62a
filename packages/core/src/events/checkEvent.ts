import type { ToolCall } from '../messages/toolCall.js';
import { unreachable } from '../support/unreachable.js';
import { mapGet } from '../support/versionedMap.js';
import type { AgentEvent } from './agentEvent.js';
import type { AgentState, ToolCallStatus } from './agentState.js';
import { answeredStatus } from './answeredCalls.js';
import { draftOf, type StateDraft } from './stateDraft.js';

/**
 * Returns why `event` contradicts `state` (SPEC EVT-4), or `undefined` when it may be folded:
 * an output for a call never made, a second output for one call, a decision for a call that is
 * not open, a second stop in one run, and the like.
 */
export function checkEvent(state: AgentState, event: AgentEvent): string | undefined {
  return checkDraft(draftOf(state), event);
}

/** `checkEvent` on a draft: what folds call for every event, in O(1) (O(batch) for a message). */
export function checkDraft(state: Readonly<StateDraft>, event: AgentEvent): string | undefined {
  switch (event.type) {
    case 'SystemPromptAdded':
      return state.systemPromptAdded ? 'the system prompt was already added' : undefined;
    case 'RunStarted':
    case 'UserMessageQueued':
    case 'SummaryAdded':
    case 'WarningRecorded':
      return undefined;
    case 'UserMessageAdded':
      if (state.queued.length === 0) return 'no user message is queued';
      return state.queued[0] === event.data.text
        ? undefined
        : 'the text differs from the oldest queued user message';
    case 'RunRequested':
      return state.runRequest === undefined
        ? undefined
        : 'a run was already requested and not yet started';
    case 'RunReleased':
      if (state.runs === 0) return 'no run was started, so none can be released';
      return state.released ? 'the run was already released' : undefined;
    case 'ModelResponded':
      return state.status === 'running' ? undefined : 'the model answered outside a run';
    case 'AssistantMessageAdded': {
      // Loops, not `map`/`find`: this runs for every message of a fold, and a batch is small.
      const { toolCalls } = event.data.message;
      for (let index = 0; index < toolCalls.length; index += 1) {
        const id = (toolCalls[index] as ToolCall).id;
        for (let before = 0; before < index; before += 1) {
          if ((toolCalls[before] as ToolCall).id === id)
            return `tool call id ${id} appears twice in one message`;
        }
      }
      for (const { id } of toolCalls) {
        if (callStatus(state, id) !== undefined) return `tool call id ${id} was already used`;
      }
      return undefined;
    }
    case 'ToolCallStarted':
      return unanswered(state, event.data.toolCall.id, 'started');
    case 'ToolCallCompleted':
    case 'ToolCallFailed':
      return startedCall(state, event.data.toolCallId);
    case 'FeedbackRequested':
      return startedCall(state, event.data.toolCall.id);
    case 'FeedbackReceived': {
      const problem = unanswered(state, event.data.toolCallId, 'decided on');
      if (problem !== undefined) return problem;
      return state.feedback[event.data.toolCallId] === undefined
        ? undefined
        : `tool call ${event.data.toolCallId} already has a decision that no invocation has used`;
    }
    case 'FeedbackConsumed':
      return state.feedback[event.data.toolCallId] === undefined
        ? `tool call ${event.data.toolCallId} has no decision to consume`
        : undefined;
    case 'AgentStopped':
      return state.status === 'stopped' ? 'the agent is already stopped' : undefined;
    case 'StopRequested':
      return state.status === 'stopped' ? 'the agent is already stopped' : undefined;
    case 'StreamForked':
      return state.revision === -1 ? undefined : 'a fork marker must be the first event';
  }
  return unreachable(event, 'event type');
}

/**
 * Where the call `toolCallId` stands, or `undefined` if the model never made it. A checking draft
 * keeps answered calls apart, as bare statuses (see `StateDraft.answered`); the rules read both
 * kinds of draft through this one function.
 */
function callStatus(state: Readonly<StateDraft>, toolCallId: string): ToolCallStatus | undefined {
  const answered =
    state.answered === undefined ? undefined : answeredStatus(state.answered, toolCallId);
  return answered ?? mapGet(state.toolCalls, toolCallId)?.status;
}

function unanswered(
  state: Readonly<StateDraft>,
  toolCallId: string,
  verb: string,
): string | undefined {
  const status = callStatus(state, toolCallId);
  if (status === undefined)
    return `tool call ${toolCallId} cannot be ${verb}: the model never made it`;
  if (status === 'completed' || status === 'failed') {
    return `tool call ${toolCallId} cannot be ${verb}: it was already answered`;
  }
  return undefined;
}

function startedCall(state: Readonly<StateDraft>, toolCallId: string): string | undefined {
  const problem = unanswered(state, toolCallId, 'answered');
  if (problem !== undefined) return problem;
  return callStatus(state, toolCallId) === 'started'
    ? undefined
    : `tool call ${toolCallId} cannot be answered: it was not started`;
}
