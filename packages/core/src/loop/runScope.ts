import type { AgentOptions } from '../api/agentOptions.js';
import type { DeciderSettings } from '../decider/deciderSettings.js';
import type { AgentHandle } from '../api/agentHandle.js';
import type { RunChannel, RunOptions, ToolRunner } from '../api/runOptions.js';
import type { RequestFingerprinter } from '../events/requestFingerprint.js';
import type { StreamWriter } from '../writer/streamWriter.js';

/** What the interpreter works with: code and settings, the stream writer, and the ports of a run. */
export interface RunScope {
  readonly config: AgentOptions;
  readonly settings: DeciderSettings;
  readonly writer: StreamWriter;
  /** Keeps the hash of the messages already sent, so a fingerprint costs O(new messages). */
  readonly fingerprints: RequestFingerprinter;
  /** What hooks receive of the agent. */
  readonly agent: AgentHandle;
  readonly runTool: ToolRunner;
  /**
   * Who claims a run of this agent that no worker took (SPEC WRK-4): unique to this agent object,
   * so its own run cut off by a store outage is its own to claim again (RES-4).
   */
  readonly owner: string;
  /** The options of the run in progress (its signal: the caller's, or its lease lost). */
  options: RunOptions;
  /** What the worker or a replay gave the run in progress, beside its options. */
  channel: RunChannel;
}
