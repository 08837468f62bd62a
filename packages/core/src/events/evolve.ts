import { toolCallHash } from '../messages/toolCall.js';
import type { ToolOutput } from '../messages/toolOutput.js';
import type { AgentEvent } from './agentEvent.js';
import type { AgentState, ToolCallState } from './agentState.js';

/**
 * Folds one event into the state. Pure and total: every event type has its case and nothing
 * outside the arguments is read. Events are checked by `checkEvent` before they get here.
 */
export function evolve(state: AgentState, event: AgentEvent): AgentState {
  const next = applyEvent(state, event);
  return { ...next, revision: event.metadata.revision, lastEventAt: event.metadata.at };
}

function applyEvent(state: AgentState, event: AgentEvent): AgentState {
  switch (event.type) {
    case 'SystemPromptAdded':
      return {
        ...state,
        systemPromptAdded: true,
        history: [...state.history, { role: 'system', text: event.data.text }],
      };
    case 'RunStarted': {
      const { stopReason: _reason, stopCause: _cause, ...rest } = state;
      return {
        ...rest,
        status: 'running',
        runs: state.runs + 1,
        runMode: event.data.mode,
        completionsInRun: 0,
        lastResponseEmpty: false,
      };
    }
    case 'UserMessageQueued':
      return { ...state, queued: [...state.queued, event.data.text] };
    case 'UserMessageAdded':
      return {
        ...state,
        queued: state.queued.slice(1),
        history: [...state.history, { role: 'user', text: event.data.text }],
      };
    case 'SummaryAdded':
      return { ...state, history: [...state.history, { role: 'summary', text: event.data.text }] };
    case 'ModelResponded': {
      const { message, toolCalls } = event.data.response;
      return {
        ...state,
        completionsInRun: state.completionsInRun + 1,
        historyLengthAtLastCompletion: state.history.length,
        lastResponseEmpty: (message === undefined || message === '') && toolCalls.length === 0,
      };
    }
    case 'AssistantMessageAdded': {
      const toolCalls = { ...state.toolCalls };
      for (const toolCall of event.data.message.toolCalls) {
        toolCalls[toolCall.id] = { toolCall, status: 'open', invocations: 0 };
      }
      return { ...state, toolCalls, history: [...state.history, event.data.message] };
    }
    case 'ToolCallStarted':
      return updateCall(state, event.data.toolCall.id, (call) => ({
        ...call,
        status: 'started',
        invocations: call.invocations + 1,
      }));
    case 'ToolCallCompleted':
      return answer(state, event.data.toolCallId, 'completed', event.data.output);
    case 'ToolCallFailed': {
      const call = state.toolCalls[event.data.toolCallId];
      const output = event.data.output ?? { kind: 'fail', text: event.data.error };
      const answered = answer(state, event.data.toolCallId, 'failed', output);
      if (call === undefined) return answered;
      return {
        ...answered,
        failureCounts: {
          ...answered.failureCounts,
          [toolCallHash(call.toolCall)]: event.data.failureCount,
        },
      };
    }
    case 'FeedbackRequested': {
      const { payload } = event.data;
      return updateCall(state, event.data.toolCall.id, (call) => ({
        ...withoutPayload(call),
        status: 'waiting',
        ...(payload === undefined ? {} : { feedbackPayload: payload }),
        ...(event.data.ambiguous === true ? { ambiguous: true } : {}),
      }));
    }
    case 'FeedbackReceived': {
      const { toolCallId, feedback, by, note } = event.data;
      const decision = {
        feedback,
        ...(by === undefined ? {} : { by }),
        ...(note === undefined ? {} : { note }),
      };
      return { ...state, feedback: { ...state.feedback, [toolCallId]: decision } };
    }
    case 'FeedbackConsumed': {
      const { [event.data.toolCallId]: _consumed, ...feedback } = state.feedback;
      return { ...state, feedback };
    }
    case 'AgentStopped':
      return {
        ...state,
        status: 'stopped',
        stopReason: event.data.reason,
        stopCause: event.data.cause,
      };
    case 'WarningRecorded': {
      const { toolCallId } = event.data;
      if (event.data.code !== 'approvalShadowed' || toolCallId === undefined) return state;
      return updateCall(state, toolCallId, (call) => ({ ...call, shadowed: true }));
    }
    case 'StreamForked':
      return {
        ...state,
        forkedFrom: { fromStream: event.data.fromStream, atRevision: event.data.atRevision },
      };
  }
}

function withoutPayload(call: ToolCallState): ToolCallState {
  const { feedbackPayload: _payload, ...rest } = call;
  return rest;
}

function updateCall(
  state: AgentState,
  toolCallId: string,
  update: (call: ToolCallState) => ToolCallState,
): AgentState {
  const call = state.toolCalls[toolCallId];
  if (call === undefined) return state;
  return { ...state, toolCalls: { ...state.toolCalls, [toolCallId]: update(call) } };
}

function answer(
  state: AgentState,
  toolCallId: string,
  status: 'completed' | 'failed',
  output: ToolOutput,
): AgentState {
  const call = state.toolCalls[toolCallId];
  if (call === undefined) return state;
  return {
    ...updateCall(state, toolCallId, (current) => ({ ...current, status })),
    history: [...state.history, { role: 'tool', toolCall: call.toolCall, output }],
  };
}
