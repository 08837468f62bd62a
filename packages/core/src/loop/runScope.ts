import type { Agent } from '../agent/agent.js';
import type { AgentConfig } from '../agent/agentConfig.js';
import type { RequestFingerprinter } from './requestFingerprint.js';
import type { StreamWriter } from './streamWriter.js';

/** What the run loop works with: the agent handed to hooks, its config, its stream writer. */
export interface RunScope {
  readonly agent: Agent;
  readonly config: AgentConfig;
  readonly writer: StreamWriter;
  /** Keeps the hash of the messages already sent, so a fingerprint costs O(new messages). */
  readonly fingerprints: RequestFingerprinter;
}
