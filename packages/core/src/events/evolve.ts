import { toolCallHash } from '../messages/toolCall.js';
import type { ToolOutput } from '../messages/toolOutput.js';
import { unreachable } from '../support/unreachable.js';
import { emptyMap, mapGet, mapSet, mapSize } from '../support/versionedMap.js';
import type { AgentEvent } from './agentEvent.js';
import type { AgentState, RunApproval, ToolCallState } from './agentState.js';
import { withAnswer, type AnsweredView } from './answeredCalls.js';
import { appendMessage, editableDraft, publish, type StateDraft } from './stateDraft.js';

/**
 * Folds one event into the state. Pure and total: every event type has its case, nothing outside
 * the arguments is read, and `state` is not changed. O(1): the growing parts of the state are
 * shared with `state`, not copied. Events are checked by `checkEvent` before they get here.
 */
export function evolve(state: AgentState, event: AgentEvent): AgentState {
  const draft = editableDraft(state);
  foldInto(draft, event);
  return publish(draft);
}

/** Folds one event into a draft, in place: the step of `evolve` and of every fold. */
export function foldInto(draft: StateDraft, event: AgentEvent): void {
  applyEvent(draft, event);
  draft.revision = event.metadata.revision;
  draft.lastEventAt = event.metadata.at;
}

function applyEvent(draft: StateDraft, event: AgentEvent): void {
  switch (event.type) {
    case 'SystemPromptAdded':
      draft.systemPromptAdded = true;
      appendMessage(draft, { role: 'system', text: event.data.text });
      return;
    case 'RunStarted':
      draft.stopReason = undefined;
      draft.stopCause = undefined;
      draft.status = 'running';
      draft.runs += 1;
      draft.runMode = event.data.mode;
      draft.completionsInRun = 0;
      draft.lastResponseEmpty = false;
      draft.runRequest = undefined;
      draft.worker = event.data.worker;
      draft.released = false;
      if (event.data.agent !== undefined) draft.agent = event.data.agent;
      draft.continueAfterDecision = event.data.continueAfterDecision !== false;
      if (draft.runApprovals !== undefined)
        draft.runApprovals = startRunApprovals(draft.runApprovals);
      return;
    case 'RunRequested': {
      const { agent, input, by } = event.data;
      draft.agent = agent;
      draft.runRequest = {
        ...(input === undefined ? {} : { input }),
        ...(by === undefined ? {} : { by }),
        revision: event.metadata.revision,
      };
      return;
    }
    case 'RunReleased':
      draft.released = true;
      return;
    case 'UserMessageQueued':
      draft.queued = [...draft.queued, event.data.text];
      return;
    case 'UserMessageAdded':
      draft.queued = draft.queued.slice(1);
      appendMessage(draft, { role: 'user', text: event.data.text });
      return;
    case 'SummaryAdded':
      appendMessage(draft, { role: 'summary', text: event.data.text });
      return;
    case 'ModelResponded': {
      const { message, toolCalls } = event.data.response;
      draft.completionsInRun += 1;
      draft.historyLengthAtLastCompletion = draft.history.length;
      draft.lastResponseEmpty = (message === undefined || message === '') && toolCalls.length === 0;
      return;
    }
    case 'AssistantMessageAdded': {
      const { toolCalls } = event.data.message;
      if (toolCalls.length > 0) {
        for (const toolCall of toolCalls) {
          draft.toolCalls = mapSet(draft.toolCalls, toolCall.id, {
            toolCall,
            status: 'open',
            invocations: 0,
          });
        }
        const unanswered: string[] = [];
        for (const id of draft.unanswered) unanswered.push(id);
        for (const toolCall of toolCalls) unanswered.push(toolCall.id);
        draft.unanswered = unanswered;
      }
      appendMessage(draft, event.data.message);
      return;
    }
    case 'ToolCallStarted': {
      const { approval } = event.data;
      updateCall(draft, event.data.toolCall.id, (call) =>
        approval === undefined
          ? { ...call, status: 'started', invocations: call.invocations + 1 }
          : { ...call, status: 'started', invocations: call.invocations + 1, approval },
      );
      return;
    }
    case 'ToolCallCompleted':
      answer(draft, event.data.toolCallId, 'completed', event.data.output);
      return;
    case 'ToolCallFailed': {
      const call = mapGet(draft.toolCalls, event.data.toolCallId);
      const output = event.data.output ?? { kind: 'fail', text: event.data.error };
      answer(draft, event.data.toolCallId, 'failed', output);
      // A checking draft keeps no failure counts (see `StateDraft.answered`).
      if (call !== undefined && draft.answered === undefined) {
        const hash = toolCallHash(call.toolCall);
        draft.failureCounts = mapSet(draft.failureCounts, hash, event.data.failureCount);
      }
      return;
    }
    case 'FeedbackRequested': {
      const { payload } = event.data;
      updateCall(draft, event.data.toolCall.id, (call) => ({
        ...withoutPayload(call),
        status: 'waiting',
        askedAt: event.metadata.at,
        ...(payload === undefined ? {} : { feedbackPayload: payload }),
        ...(event.data.ambiguous === true ? { ambiguous: true } : {}),
      }));
      return;
    }
    case 'FeedbackReceived': {
      const { toolCallId, feedback, by, note, scope } = event.data;
      const decision = {
        feedback,
        ...(by === undefined ? {} : { by }),
        ...(note === undefined ? {} : { note }),
      };
      draft.feedback = { ...draft.feedback, [toolCallId]: decision };
      const name = mapGet(draft.toolCalls, toolCallId)?.toolCall.name;
      if (scope === 'run' && feedback.kind === 'approved' && name !== undefined) {
        const approval = { toolCallId, ...(by === undefined ? {} : { by }), active: false };
        draft.runApprovals = { ...draft.runApprovals, [name]: approval };
      }
      return;
    }
    case 'FeedbackConsumed': {
      const { [event.data.toolCallId]: _consumed, ...feedback } = draft.feedback;
      draft.feedback = feedback;
      return;
    }
    case 'AgentStopped':
      draft.status = 'stopped';
      draft.stopReason = event.data.reason;
      draft.stopCause = event.data.cause;
      draft.stopRequest = undefined;
      if (draft.runApprovals !== undefined)
        draft.runApprovals = endRunApprovals(draft.runApprovals);
      return;
    case 'StopRequested': {
      // The first request since the last stop is the one honoured.
      const { reason, by, hook } = event.data;
      draft.stopRequest ??= {
        reason,
        ...(by === undefined ? {} : { by }),
        ...(hook === undefined ? {} : { hook }),
        revision: event.metadata.revision,
      };
      return;
    }
    case 'WarningRecorded': {
      const { toolCallId } = event.data;
      if (event.data.code !== 'approvalShadowed' || toolCallId === undefined) return;
      updateCall(draft, toolCallId, (call) => ({ ...call, shadowed: true }));
      return;
    }
    case 'StreamForked':
      draft.forkedFrom = { fromStream: event.data.fromStream, atRevision: event.data.atRevision };
      return;
  }
  // Every event type has its case: a new one fails `tsc` here (SPEC EVT-4).
  unreachable(event, 'event type');
}

type RunApprovals = NonNullable<AgentState['runApprovals']>;

/** SPEC HITL-15: a run that starts takes up the approvals given for it. */
function startRunApprovals(approvals: RunApprovals): RunApprovals {
  const started: Record<string, RunApproval> = {};
  for (const [name, approval] of Object.entries(approvals))
    started[name] = approval.active ? approval : { ...approval, active: true };
  return started;
}

/** SPEC HITL-15: the approvals of a run end when it stops; those given for the next one stay. */
function endRunApprovals(approvals: RunApprovals): RunApprovals | undefined {
  const waiting = Object.entries(approvals).filter(([, approval]) => !approval.active);
  return waiting.length === 0 ? undefined : Object.fromEntries(waiting);
}

function withoutPayload(call: ToolCallState): ToolCallState {
  const { feedbackPayload: _payload, ...rest } = call;
  return rest;
}

function updateCall(
  draft: StateDraft,
  toolCallId: string,
  update: (call: ToolCallState) => ToolCallState,
): void {
  const call = mapGet(draft.toolCalls, toolCallId);
  if (call !== undefined) draft.toolCalls = mapSet(draft.toolCalls, toolCallId, update(call));
}

function answer(
  draft: StateDraft,
  toolCallId: string,
  status: 'completed' | 'failed',
  output: ToolOutput,
): void {
  const call = mapGet(draft.toolCalls, toolCallId);
  if (call === undefined) return;
  // Unanswered calls are the few of the open batches: dropping one costs O(batch), not O(run).
  draft.unanswered = withoutId(draft.unanswered, toolCallId);
  if (draft.answered !== undefined) {
    answerInCheck(draft, toolCallId, status, draft.answered);
    appendMessage(draft, { role: 'tool', toolCall: call.toolCall, output });
    return;
  }
  draft.toolCalls = mapSet(draft.toolCalls, toolCallId, { ...call, status });
  appendMessage(draft, { role: 'tool', toolCall: call.toolCall, output });
}

/**
 * A checking draft keeps an answered call as its id and status only, and drops the records of
 * answered calls from `toolCalls` once they outnumber the open ones: memory O(open calls) plus
 * a bare id per answered call, in amortised O(1) per answer.
 */
function answerInCheck(
  draft: StateDraft,
  toolCallId: string,
  status: 'completed' | 'failed',
  answered: AnsweredView,
): void {
  draft.answered = withAnswer(answered, toolCallId, status);
  if (mapSize(draft.toolCalls) <= 2 * draft.unanswered.length + 32) return;
  let open = emptyMap<ToolCallState>();
  for (const id of draft.unanswered)
    open = mapSet(open, id, mapGet(draft.toolCalls, id) as ToolCallState);
  draft.toolCalls = open;
}

// Not frozen: V8 copies a frozen array on a slow path. No code pushes to `unanswered` in place.
const noIds: readonly string[] = [];

/** `ids` without `id`: a new array (the old one may be a published state's), or a shared empty one. */
function withoutId(ids: readonly string[], id: string): readonly string[] {
  if (ids.length === 1 && ids[0] === id) return noIds;
  return ids.filter((other) => other !== id);
}
