import type { ChatCompletion } from '../ports/chatCompletion.js';
import type { EventStore } from '../ports/eventStore.js';
import type { Tool } from '../tools/tool.js';
import type { HookRegistry, Logger } from './hooks.js';

/**
 * What an agent is built with: code and settings, never state. Replay supplies it again, so a
 * replayed agent is built the same way.
 */
export interface AgentConfig {
  readonly model: ChatCompletion;
  readonly systemPrompt?: string;
  /** By name, in the order they were added; specs go to the model ordered by name. */
  readonly tools: ReadonlyMap<string, Tool>;
  readonly limit?: number;
  readonly toolRetryLimit: number;
  readonly stopOnAssistant: boolean;
  /**
   * How long a run that another process started owns the stream after its last event (SPEC
   * RES-3). Past it the run counts as crashed and may be resumed.
   */
  readonly runLeaseMs: number;
  readonly store: EventStore;
  readonly streamId: string;
  readonly clock: () => Date;
  readonly ids: () => string;
  readonly hooks: HookRegistry;
  readonly logger: Logger;
}
