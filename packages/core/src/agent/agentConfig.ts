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
  readonly store: EventStore;
  readonly streamId: string;
  readonly clock: () => Date;
  readonly ids: () => string;
  readonly hooks: HookRegistry;
  readonly logger: Logger;
}
