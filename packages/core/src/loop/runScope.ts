import type { AgentConfig } from './agentConfig.js';
import type { ToolResult } from './hooks.js';
import type { DeciderSettings } from '../decider/deciderSettings.js';
import type { Outcome } from '../decider/recordOutcome.js';
import type { ToolCall } from '../messages/toolCall.js';
import type { AgentHandle } from './agentHandle.js';
import type { AgentContext } from './agentContext.js';
import type { RequestFingerprinter } from './requestFingerprint.js';
import type { StreamWriter } from './streamWriter.js';

/**
 * How a batch gets a tool's own result: by running the tool (the default), or, in a replay, from
 * the recording (SPEC RPL-5). It never throws: a failure is a result.
 */
export type ToolRunner = (
  toolCall: ToolCall,
  context: AgentContext,
  /** The stream revision of the batch's starts. */
  at: { readonly revision: number },
) => Promise<ToolResult>;

/** What the caller gives a run (SPEC LOOP-10): an abort signal, and a callback per text delta. */
export interface RunOptions {
  readonly signal?: AbortSignal;
  /** Each text delta of a streamed answer, as it arrives; chunks are not events. */
  readonly onTextDelta?: (delta: string, context: TextDeltaContext) => void;
}

/** Where a text delta belongs. */
export interface TextDeltaContext {
  readonly streamId: string;
  /** The completion's number in this run, from 1. */
  readonly completion: number;
}

/** What the interpreter works with: code and settings, the stream writer, and the run's inbox. */
export interface RunScope {
  readonly config: AgentConfig;
  readonly settings: DeciderSettings;
  readonly writer: StreamWriter;
  /** Keeps the hash of the messages already sent, so a fingerprint costs O(new messages). */
  readonly fingerprints: RequestFingerprinter;
  /** What hooks receive of the agent. */
  readonly agent: AgentHandle;
  readonly runTool: ToolRunner;
  /** Stop requests given during the run, by hooks or the caller; the interpreter takes them in. */
  readonly inbox: Outcome[];
  /** The options of the run in progress. */
  options: RunOptions;
}
