import type { HookKind, HookRegistry, Hooks, Logger } from './hooks.js';
import type { ToolRunner } from './runOptions.js';
import type { ChatCompletion } from '../ports/chatCompletion.js';
import type { EventStore } from '../ports/eventStore.js';
import type { Tool } from './tool.js';
import type { RunWrapper } from './runWrapper.js';

/**
 * What an agent is built with: code and settings, never state. The builder fills a draft of it
 * and `build()` resolves the draft once; replay supplies it again, so a replayed agent is built
 * the same way.
 */
export interface AgentOptions {
  /** The model the agent asks, inside every `mapModel` wrapper. */
  readonly model: ChatCompletion;
  /** The system prompt, added once on the agent's first run. */
  readonly systemPrompt?: string;
  /** By name, in the order they were added; specs go to the model ordered by name. */
  readonly tools: ReadonlyMap<string, Tool>;
  /** The most completions a run may ask for (SPEC LOOP-5); absent, no limit. */
  readonly limit?: number;
  /** How often one call (name + args) may fail before the agent stops (SPEC TOOL-3). */
  readonly toolRetryLimit: number;
  /** Whether a plain text answer ends the run (SPEC LOOP-3). */
  readonly stopOnAssistant: boolean;
  /**
   * How long a run's lease lasts after its claim, each of its appends and each renewal, by the
   * store's clock (SPEC RES-3, WRK-4). Past it the run counts as crashed and may be resumed.
   */
  readonly runLeaseMs: number;
  /**
   * The registered agent name (SPEC WRK-9): every run records it in its `RunStarted`, so a worker
   * whose `agents` has this name can continue the stream however the run started.
   */
  readonly name?: string;
  /**
   * Whether a worker continues a run once every call it stopped for holds a decision (SPEC
   * WRK-2); absent, it does.
   */
  readonly continueAfterDecision?: boolean;
  /** The event store the agent's stream lives in. */
  readonly store: EventStore;
  /** The id of the agent's stream. */
  readonly streamId: string;
  /** The clock that stamps events (SPEC EVT-2). */
  readonly clock: () => Date;
  /** The id generator for events and missing tool-call ids (SPEC EVT-2). */
  readonly ids: () => string;
  /** The hooks by kind, each list in the order the hooks were added (SPEC LOOP-9). */
  readonly hooks: HookRegistry;
  /** Where warnings go. */
  readonly logger: Logger;
  /** Serves each tool's own result instead of running the tool (SPEC RPL-5); absent, tools run. */
  readonly toolRunner?: ToolRunner;
  /** Code around each run, the first outermost (see {@link RunWrapper}). */
  readonly runWrappers: readonly RunWrapper[];
}

/**
 * The options as a builder collects them, unchecked: any of them may be missing, tools are a
 * list (names may clash until `build()` checks them), hooks and run wrappers are lists to add to.
 */
export type AgentOptionsDraft = {
  -readonly [K in Exclude<keyof AgentOptions, 'tools' | 'hooks' | 'runWrappers'>]?:
    AgentOptions[K] | undefined;
} & {
  tools: readonly Tool[];
  runWrappers: readonly RunWrapper[];
  readonly hooks: { [K in HookKind]: Hooks[K][] };
};
