/** What the decider knows of a tool: its policy, never its code (SPEC TOOL-7). */
export interface ToolPolicy {
  /** Re-running it after a crash is safe. */
  readonly idempotent: boolean;
  /** An approval gate: it runs its side effect only for a call that holds an approval. */
  readonly gated: boolean;
  /**
   * The gate has a condition (`approvalRequired(tool, { when })`, SPEC HITL-13): each new call
   * is judged before it starts, and only those it says need one wait for a person.
   */
  readonly conditional?: boolean;
}

/**
 * The settings the decider decides with: plain values, no code. An agent projects them from its
 * options (`agent/deciderSettingsOf.ts`); a spec writes them by hand.
 */
export interface DeciderSettings {
  readonly streamId: string;
  readonly systemPrompt?: string;
  readonly limit?: number;
  readonly toolRetryLimit: number;
  readonly stopOnAssistant: boolean;
  /**
   * How long a run's lease lasts after its claim, each append and each renewal, by the store's
   * clock (SPEC RES-3, WRK-4).
   */
  readonly runLeaseMs: number;
  /** The registered agent name a run records in its `RunStarted` (SPEC WRK-9), if it has one. */
  readonly agentName?: string;
  /** The agent opted out of being continued by a worker after a decision (SPEC WRK-9). */
  readonly continueAfterDecision?: false;
  /** The policy of every tool the agent has, by name. */
  readonly tools: ReadonlyMap<string, ToolPolicy>;
}

/**
 * The defaults of an agent's options (applied by `resolveOptions`), of a command given without an
 * agent, and of a decider spec: written here once.
 */
export const DEFAULT_SETTINGS = Object.freeze({
  toolRetryLimit: 3,
  stopOnAssistant: true,
  runLeaseMs: 5 * 60_000,
} as const);
