import type { Agent } from '../agent/agent.js';
import type { AgentConfig } from '../agent/agentConfig.js';
import type { StreamWriter } from './streamWriter.js';

/** What the run loop works with: the agent handed to hooks, its config and its stream writer. */
export interface RunScope {
  readonly agent: Agent;
  readonly config: AgentConfig;
  readonly writer: StreamWriter;
}
