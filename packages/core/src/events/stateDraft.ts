import type { StopCause, StopReason } from './stopReason.js';
import type { ChatMessage } from '../messages/chatMessage.js';
import { emptyLog, logCount, logSlice, logPush, type LogView } from '../support/appendLog.js';
import {
  emptyMap,
  mapEntries,
  mapFreeze,
  mapGet,
  mapSet,
  type MapView,
} from '../support/versionedMap.js';
import type { RunMode } from './agentEvent.js';
import type { AgentState, PendingDecision, ToolCallState } from './agentState.js';
import type { AnsweredView } from './answeredCalls.js';

/**
 * The working form of an agent's state: what `evolve` folds into, in place, before it hands the
 * result out as an `AgentState`. Its growing parts (history, tool calls, failure counts) are
 * persistent views that a lineage of states shares, so folding an event costs O(1) and no state
 * that was handed out ever changes.
 */
export interface StateDraft {
  status: AgentState['status'];
  stopReason: StopReason | undefined;
  stopCause: StopCause | undefined;
  revision: number;
  lastEventAt: string | undefined;
  runs: number;
  runMode: RunMode | undefined;
  systemPromptAdded: boolean;
  history: LogView<ChatMessage>;
  queued: readonly string[];
  toolCalls: MapView<ToolCallState>;
  /** Ids of the calls not answered yet, in the order the model made them. */
  unanswered: readonly string[];
  feedback: { readonly [toolCallId: string]: PendingDecision };
  failureCounts: MapView<number>;
  completionsInRun: number;
  historyLengthAtLastCompletion: number;
  lastResponseEmpty: boolean;
  forkedFrom: AgentState['forkedFrom'];
  stopRequest: AgentState['stopRequest'];
  runApprovals: AgentState['runApprovals'];
  agent: string | undefined;
  /** False when the last run's agent opted out of being continued after a decision. */
  continueAfterDecision: boolean;
  runRequest: AgentState['runRequest'];
  worker: AgentState['worker'];
  released: boolean;
  /** Index in the history of the system prompt and of the last summary; -1 when there is none. */
  systemIndex: number;
  summaryIndex: number;
  /** Index of the last assistant message with tool calls, and whether a tool output follows it. */
  batchIndex: number;
  outputAfterBatch: boolean;
  /**
   * Set in a checking draft only (`checkStream`), which keeps what the EVT-4 checks and a status
   * need: answered calls as bare id → status here, dropped from `toolCalls`; no history, no
   * failure counts. `undefined` in the draft of a full state.
   */
  answered: AnsweredView | undefined;
}

/**
 * Where a published state keeps its draft: a non-enumerable key, so equality, JSON and spreading
 * never see it. A property, not a WeakMap: a step publishes a few states, and weak maps cost the
 * garbage collector more than a plain property does.
 */
const DRAFT = Symbol('agentlog.stateDraft');

/** Where a state keeps the collections it built on first access: non-enumerable too. */
const BUILT = Symbol('agentlog.stateCollections');

/** A draft of an empty stream. */
export function emptyDraft(): StateDraft {
  return {
    status: 'pending',
    stopReason: undefined,
    stopCause: undefined,
    revision: -1,
    lastEventAt: undefined,
    runs: 0,
    runMode: undefined,
    systemPromptAdded: false,
    history: emptyLog(),
    queued: [],
    toolCalls: emptyMap(),
    unanswered: [],
    feedback: {},
    failureCounts: emptyMap(),
    completionsInRun: 0,
    historyLengthAtLastCompletion: 0,
    lastResponseEmpty: false,
    forkedFrom: undefined,
    stopRequest: undefined,
    runApprovals: undefined,
    agent: undefined,
    continueAfterDecision: true,
    runRequest: undefined,
    worker: undefined,
    released: false,
    systemIndex: -1,
    summaryIndex: -1,
    batchIndex: -1,
    outputAfterBatch: false,
    answered: undefined,
  };
}

/**
 * The draft behind a state that `publish` handed out, read-only: O(1). A state built some other
 * way (parsed from JSON, written by hand) is converted once, in O(size).
 */
export function draftOf(state: AgentState): Readonly<StateDraft> {
  return (state as { [DRAFT]?: StateDraft })[DRAFT] ?? fromPlainState(state);
}

/** A copy of the state's draft that may be folded into. */
export function editableDraft(state: AgentState): StateDraft {
  return copyDraft(draftOf(state));
}

/**
 * A draft field by field, in one order: every draft has the same hidden class, so reading one is
 * monomorphic. (A spread copies as fast only while the drafts it sees share one hidden class; a
 * draft made another way made it megamorphic, ten times slower.) A field added to `StateDraft`
 * fails `tsc` here until it is copied.
 */
function copyDraft(draft: Readonly<StateDraft>): StateDraft {
  return {
    status: draft.status,
    stopReason: draft.stopReason,
    stopCause: draft.stopCause,
    revision: draft.revision,
    lastEventAt: draft.lastEventAt,
    runs: draft.runs,
    runMode: draft.runMode,
    systemPromptAdded: draft.systemPromptAdded,
    history: draft.history,
    queued: draft.queued,
    toolCalls: draft.toolCalls,
    unanswered: draft.unanswered,
    feedback: draft.feedback,
    failureCounts: draft.failureCounts,
    completionsInRun: draft.completionsInRun,
    historyLengthAtLastCompletion: draft.historyLengthAtLastCompletion,
    lastResponseEmpty: draft.lastResponseEmpty,
    forkedFrom: draft.forkedFrom,
    stopRequest: draft.stopRequest,
    runApprovals: draft.runApprovals,
    agent: draft.agent,
    continueAfterDecision: draft.continueAfterDecision,
    runRequest: draft.runRequest,
    worker: draft.worker,
    released: draft.released,
    systemIndex: draft.systemIndex,
    summaryIndex: draft.summaryIndex,
    batchIndex: draft.batchIndex,
    outputAfterBatch: draft.outputAfterBatch,
    answered: draft.answered,
  };
}

/**
 * Hands a draft out as an `AgentState`. The draft must not be changed afterwards. The growing
 * collections are read-only arrays and objects built on first access (once per state), so a fold
 * or a step never pays for them.
 */
export function publish(draft: StateDraft): AgentState {
  // What the state sees never changes: later folds write new versions of its calls and counts.
  mapFreeze(draft.toolCalls);
  mapFreeze(draft.failureCounts);
  const accessors = draft.answered === undefined ? fullAccessors : checkedAccessors;
  // Built field by field in one order, its collections defined with shared getters: every state
  // has the same hidden class. An object literal with getters makes each state a dictionary
  // (about 1.8 KB, and a closure per getter) instead.
  const state = {
    status: draft.status,
    revision: draft.revision,
    runs: draft.runs,
    systemPromptAdded: draft.systemPromptAdded,
  } as WritableState;
  Object.defineProperty(state, 'history', accessors.history);
  state.queued = draft.queued;
  Object.defineProperty(state, 'toolCalls', accessors.toolCalls);
  state.feedback = draft.feedback;
  Object.defineProperty(state, 'failureCounts', accessors.failureCounts);
  state.completionsInRun = draft.completionsInRun;
  state.historyLengthAtLastCompletion = draft.historyLengthAtLastCompletion;
  state.lastResponseEmpty = draft.lastResponseEmpty;
  // Absent, not undefined: a state must be deep-equal to the same state parsed from JSON.
  if (draft.stopReason !== undefined) state.stopReason = draft.stopReason;
  if (draft.stopCause !== undefined) state.stopCause = draft.stopCause;
  if (draft.lastEventAt !== undefined) state.lastEventAt = draft.lastEventAt;
  if (draft.runMode !== undefined) state.runMode = draft.runMode;
  if (draft.forkedFrom !== undefined) state.forkedFrom = draft.forkedFrom;
  if (draft.stopRequest !== undefined) state.stopRequest = draft.stopRequest;
  if (draft.runApprovals !== undefined) state.runApprovals = draft.runApprovals;
  if (draft.agent !== undefined) state.agent = draft.agent;
  if (!draft.continueAfterDecision) state.continueAfterDecision = false;
  if (draft.runRequest !== undefined) state.runRequest = draft.runRequest;
  if (draft.worker !== undefined) state.worker = draft.worker;
  if (draft.released) state.released = true;
  Object.defineProperty(state, DRAFT, { value: draft });
  return state;
}

type WritableState = { -readonly [K in keyof AgentState]: AgentState[K] };

/** A published state as its getters see it: its draft and what it built, under hidden keys. */
interface Published {
  readonly [DRAFT]: StateDraft;
  [BUILT]?: Built;
}

interface Built {
  history?: readonly ChatMessage[];
  toolCalls?: AgentState['toolCalls'];
  failureCounts?: AgentState['failureCounts'];
}

/** What `state` built so far; a new state defines its (non-enumerable) record on first access. */
function builtOf(state: Published): Built {
  let built = state[BUILT];
  if (built === undefined) {
    built = {};
    // A state its reader froze builds its collections again at each access.
    if (Object.isExtensible(state)) Object.defineProperty(state, BUILT, { value: built });
  }
  return built;
}

/** An enumerable getter, as an object literal's getter is, shared by every state. */
function getter<T>(get: (this: Published) => T): PropertyDescriptor {
  return { get, enumerable: true, configurable: true };
}

/** The collections of a full state, built on first access. */
const fullAccessors = {
  history: getter(function (this) {
    return (builtOf(this).history ??= Object.freeze(logSlice(this[DRAFT].history)));
  }),
  toolCalls: getter(function (this) {
    return (builtOf(this).toolCalls ??= Object.freeze(
      Object.fromEntries(mapEntries(this[DRAFT].toolCalls)),
    ));
  }),
  failureCounts: getter(function (this) {
    return (builtOf(this).failureCounts ??= Object.freeze(
      Object.fromEntries(mapEntries(this[DRAFT].failureCounts)),
    ));
  }),
};

function notKept(what: string): Error {
  return new Error(
    `a state from checkStream keeps no ${what}: fold the stream with foldStream to read it`,
  );
}

/**
 * The collections of a checked state (`checkStream`): its `toolCalls` are the calls not answered
 * yet; it kept no history and no failure counts, so reading them throws rather than lie.
 */
const checkedAccessors = {
  history: getter(function (this): never {
    throw notKept('history');
  }),
  toolCalls: getter(function (this) {
    const draft = this[DRAFT];
    return (builtOf(this).toolCalls ??= Object.freeze(
      Object.fromEntries(
        draft.unanswered.map((id) => [id, mapGet(draft.toolCalls, id) as ToolCallState]),
      ),
    ));
  }),
  failureCounts: getter(function (this): never {
    throw notKept('failure counts');
  }),
};

function fromPlainState(state: AgentState): StateDraft {
  const draft = emptyDraft();
  for (const message of state.history) appendMessage(draft, message);
  let toolCalls = draft.toolCalls;
  const unanswered: string[] = [];
  for (const [id, call] of Object.entries(state.toolCalls)) {
    toolCalls = mapSet(toolCalls, id, call);
    if (call.status !== 'completed' && call.status !== 'failed') unanswered.push(id);
  }
  let failureCounts = draft.failureCounts;
  for (const [hash, count] of Object.entries(state.failureCounts)) {
    failureCounts = mapSet(failureCounts, hash, count);
  }
  // Through `copyDraft`: this draft gets the hidden class of every other one.
  return copyDraft({
    ...draft,
    status: state.status,
    stopReason: state.stopReason,
    stopCause: state.stopCause,
    revision: state.revision,
    lastEventAt: state.lastEventAt,
    runs: state.runs,
    runMode: state.runMode,
    systemPromptAdded: state.systemPromptAdded,
    queued: state.queued,
    toolCalls,
    unanswered,
    feedback: state.feedback,
    failureCounts,
    completionsInRun: state.completionsInRun,
    historyLengthAtLastCompletion: state.historyLengthAtLastCompletion,
    lastResponseEmpty: state.lastResponseEmpty,
    forkedFrom: state.forkedFrom,
    stopRequest: state.stopRequest,
    runApprovals: state.runApprovals,
    agent: state.agent,
    continueAfterDecision: state.continueAfterDecision !== false,
    runRequest: state.runRequest,
    worker: state.worker,
    released: state.released === true,
  });
}

/** Appends a message to the draft's history and keeps its indexes. */
export function appendMessage(draft: StateDraft, message: ChatMessage): void {
  // A checking draft counts the history without keeping it (its indexes serve its queries only).
  if (draft.answered !== undefined) {
    draft.history = logCount(draft.history);
    return;
  }
  const index = draft.history.length;
  draft.history = logPush(draft.history, message);
  switch (message.role) {
    case 'system':
      draft.systemIndex = index;
      return;
    case 'summary':
      draft.summaryIndex = index;
      return;
    case 'assistant':
      if (message.toolCalls.length > 0) {
        draft.batchIndex = index;
        draft.outputAfterBatch = false;
      }
      return;
    case 'tool':
      if (draft.batchIndex !== -1) draft.outputAfterBatch = true;
      return;
    case 'user':
      return;
  }
}
