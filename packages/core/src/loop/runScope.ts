import type { AgentOptions } from '../api/agentOptions.js';
import type { DeciderSettings } from '../decider/deciderSettings.js';
import type { AgentHandle } from '../api/agentHandle.js';
import type { RunOptions, ToolRunner } from '../api/runOptions.js';
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
  /** The options of the run in progress. */
  options: RunOptions;
}
