import type { ChatMessage } from '../messages/chatMessage.js';
import type { ToolCall } from '../messages/toolCall.js';
import type { ToolOutput } from '../messages/toolOutput.js';
import type { CompletionRequest, CompletionResponse } from '../ports/chatCompletion.js';
import type { ToolError } from '../errors/toolError.js';
import type { HookKind } from '../events/agentEvent.js';
import type { AgentHandle } from './agentHandle.js';
import type { StopReason } from '../events/stopReason.js';

type Awaitable<T> = T | Promise<T>;

/** One chunk of a streamed answer: its text, and which completion of the run it belongs to. */
export interface StreamChunk {
  readonly delta: string;
  /** The completion's number in this run, from 1. */
  readonly completion: number;
}

/** What a tool call produced, as `afterTool` hooks see and may replace it. */
export type ToolResult =
  | { readonly ok: true; readonly output: ToolOutput }
  | { readonly ok: false; readonly error: ToolError };

/**
 * The lifecycle hooks (SPEC LOOP-9). Each receives a handle of its agent first (stream id, state,
 * history, context, stop); hooks of one kind run in the
 * order they were added; a hook that returns a value replaces what it was given.
 */
export interface Hooks {
  /** Once, on the agent's first run, before the system prompt is added. */
  beforeAll: (agent: AgentHandle) => Awaitable<void>;
  /** At the start of every run, after open calls were resumed and queued texts added. */
  onStart: (agent: AgentHandle) => Awaitable<void>;
  /** Before each completion; may return a changed request. */
  beforeCompletion: (
    agent: AgentHandle,
    request: CompletionRequest,
  ) => Awaitable<CompletionRequest | void>;
  /** After each completion, once the raw answer is recorded; may return a changed response. */
  afterCompletion: (
    agent: AgentHandle,
    response: CompletionResponse,
  ) => Awaitable<CompletionResponse | void>;
  /** Before each tool invocation, in batch order. */
  beforeTool: (agent: AgentHandle, toolCall: ToolCall) => Awaitable<void>;
  /** After each tool invocation, before the agent inspects the output; may replace the result. */
  afterTool: (
    agent: AgentHandle,
    toolCall: ToolCall,
    result: ToolResult,
  ) => Awaitable<ToolResult | void>;
  /** After each completion step, once its tools ran. */
  afterEach: (agent: AgentHandle) => Awaitable<void>;
  /** For every assistant message and tool output entering the history; may replace it. */
  onNewMessage: (agent: AgentHandle, message: ChatMessage) => Awaitable<ChatMessage | void>;
  /**
   * For each chunk of a streamed answer, as it arrives (Swiftide's `on_stream`); chunks are not
   * events. It runs synchronously: a promise it returns is not awaited.
   */
  onStream: (agent: AgentHandle, chunk: StreamChunk) => void;
  /** When the agent stops, once per run; `error` is set when the run failed. */
  onStop: (agent: AgentHandle, reason: StopReason, error?: Error) => Awaitable<void>;
}

export type { HookKind };

// Every hook kind has a hook signature and every signature a listed kind: the compiler holds it.
type Exactly<A, B> = [A] extends [B] ? ([B] extends [A] ? true : never) : never;
const hookKindsAreListed: Exactly<keyof Hooks, HookKind> = true;
void hookKindsAreListed;

/** The hooks of an agent, by kind, in the order they were added. */
export type HookRegistry = { readonly [K in HookKind]: readonly Hooks[K][] };

// Where warnings go; defined beside the model port, which receives it with each call.
export type { Logger } from '../ports/logger.js';
