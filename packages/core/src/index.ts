// The public surface of @agentlog/core (DESIGN: names are a contract).
export { Agent } from './agent/agent.js';
export type { PendingFeedback } from './agent/agent.js';
export { AgentBuilder } from './agent/agentBuilder.js';
export type { RunWrapper, RunCall } from './api/runWrapper.js';
export type { AgentOptions } from './api/agentOptions.js';
export type { AgentContext, FeedbackAuthor } from './api/agentContext.js';
export type { Hooks, HookKind, Logger, ToolResult, StreamChunk } from './api/hooks.js';
export type { AgentHandle } from './api/agentHandle.js';
export type { ToolRunner, RunOptions, TextDeltaContext } from './api/runOptions.js';

// Decisions and stops without an agent (SPEC HITL-12).
export { recordDecision } from './commands/recordDecision.js';
export { pendingDecisions } from './readModels/pendingDecisions.js';
export type { WaitingCall } from './readModels/waitingCalls.js';
export { requestStop } from './commands/requestStop.js';
export { requestRun, type RunRequestOptions } from './commands/requestRun.js';
export { createWorker, type Worker, type WorkerOptions } from './worker/createWorker.js';
export type { WorkerActivity } from './worker/workerActivity.js';
export type { WorkerAgent, WorkerAgentBuilder, WorkerAgents } from './worker/workerAgent.js';
export type { CommandResult, OutsideOptions } from './commands/giveCommand.js';
export {
  isRequestedByTool,
  isAgentFailed,
  isToolCallsOverLimit,
  isFeedbackRequired,
  isError,
  isNoNewMessages,
  isOther,
} from './events/stopReason.js';
export type { StopReason, StopReasonOf, StopCause } from './events/stopReason.js';

export { AgentlogError, isAgentlogError } from './errors/agentlogError.js';
export { AgentError } from './errors/agentError.js';
export type { AgentErrorCode } from './errors/agentError.js';
export { CompletionError } from './errors/completionError.js';
export type { CompletionFailureKind } from './errors/completionError.js';
export { ToolError } from './errors/toolError.js';
export type { ToolErrorCode } from './errors/toolError.js';
export { ConcurrencyError } from './errors/concurrencyError.js';
export { RunOwnedError } from './errors/runOwnedError.js';
export { LeaseLostError } from './errors/leaseLostError.js';
export { AgentAtCapError } from './errors/agentAtCapError.js';
export { InvalidEventError } from './errors/invalidEventError.js';
export { ReplayDivergenceError } from './errors/replayDivergenceError.js';

export type {
  AgentEvent,
  AgentEventType,
  DomainEvent,
  EventData,
  PendingEvent,
  ForeignEventType,
  RunMode,
  WorkerIdentity,
  RawToolResult,
  ApprovalVerdict,
  DecisionScope,
  SystemPromptAdded,
  RunStarted,
  RunRequested,
  RunReleased,
  UserMessageQueued,
  UserMessageAdded,
  SummaryAdded,
  ModelResponded,
  AssistantMessageAdded,
  ToolCallStarted,
  ToolCallCompleted,
  ToolCallFailed,
  FeedbackRequested,
  FeedbackReceived,
  FeedbackConsumed,
  AgentStopped,
  StopRequested,
  WarningRecorded,
  StreamForked,
} from './events/agentEvent.js';
export { CURRENT_SCHEMA_VERSION, FOREIGN_EVENT_TYPES } from './events/agentEvent.js';
export type {
  AgentState,
  ToolCallState,
  ToolCallStatus,
  PendingDecision,
  RunApproval,
  RunRequest,
} from './events/agentState.js';
export { initialState } from './events/agentState.js';
export { evolve } from './events/evolve.js';
export { checkEvent } from './events/checkEvent.js';
export { decodeEvent, createEventDecoder, defaultUpcasters } from './events/decodeEvent.js';
export type { Upcaster, UpcasterStep, UpcasterTable } from './events/decodeEvent.js';
export { foldEvents, foldStream } from './events/foldEvents.js';
export { checkStream } from './events/checkStream.js';

export type {
  ChatMessage,
  SystemMessage,
  UserMessage,
  AssistantMessage,
  ToolOutputMessage,
  SummaryMessage,
} from './messages/chatMessage.js';
export type { ToolCall } from './messages/toolCall.js';
export { canonicalArgs } from './messages/toolCall.js';
export { ToolOutput, asText, asFail, asStop, asAgentFailed } from './messages/toolOutput.js';
export { ToolFeedback } from './messages/toolFeedback.js';
export type { ToolFeedbackDraft } from './messages/toolFeedback.js';

export type {
  ChatCompletion,
  CompletionRequest,
  CompletionResponse,
  CompletionOptions,
  CompletionUsage,
  FinishReason,
  ToolSpec,
} from './ports/chatCompletion.js';
export type {
  EventStore,
  ExpectedRevision,
  NewStreamEvent,
  StreamEvent,
  EventMetadata,
  NewEventMetadata,
  ReadStreamOptions,
  AppendResult,
  AppendOptions,
  RunClaim,
} from './ports/eventStore.js';
export type {
  WorkEntry,
  WorkIndex,
  WorkItem,
  WorkReason,
  WorkState,
  WorkStatus,
  WorkerInfo,
} from './ports/workIndex.js';
export { createInMemoryEventStore, type InMemoryStoreOptions } from './store/inMemoryEventStore.js';
export { requestFingerprint } from './events/requestFingerprint.js';

export type { Tool } from './api/tool.js';
export { tool } from './tools/createTool.js';
export { stopTool } from './tools/stopTool.js';
export { StopWithArgs } from './tools/stopWithArgs.js';
export { AgentCanFail } from './tools/agentCanFail.js';
export { approvalRequired } from './tools/approvalRequired.js';
export type { ApprovalCondition, ApprovalOptions } from './api/approvalGate.js';
export { REFUSAL_TEXT } from './messages/toolFeedback.js';

export type { JsonValue, JsonObject } from './support/json.js';
export { uuidV7 } from './support/uuidV7.js';
