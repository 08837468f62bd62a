import type { Observable } from 'rxjs';
import type { AgentEvent, WorkerIdentity } from '../events/agentEvent.js';
import type { AgentState } from '../events/agentState.js';
import type { RunOptions } from '../api/runOptions.js';
import type { EventStore } from '../ports/eventStore.js';

/**
 * What a worker needs of an agent (the `Agent` has it all): its stream, its state, its run, its
 * lease, whether it continues after a decision, and how to give a run back.
 */
export interface WorkerAgent {
  readonly streamId: string;
  readonly events$: Observable<AgentEvent>;
  /** How long a run is leased after each append (SPEC WRK-4); renewed every third of it. */
  readonly runLeaseMs: number;
  /** False when the agent opted out of being continued after a decision (SPEC WRK-2). */
  readonly continuesAfterDecision: boolean;
  state(): AgentState;
  run(options?: RunOptions): Promise<void>;
  releaseRun(worker: WorkerIdentity, options?: { readonly reason?: string }): Promise<void>;
}

/** What a worker needs of an agent's builder (the `AgentBuilder` has it): store, stream, build. */
export interface WorkerAgentBuilder {
  store(store: EventStore): WorkerAgentBuilder;
  streamId(id: string): WorkerAgentBuilder;
  build(): Promise<WorkerAgent>;
}

/**
 * The agents a worker runs, by registered name (`RunRequested.agent`): each makes the builder of
 * the agent for a stream; the worker sets its store and stream id and builds it.
 */
export type WorkerAgents = Readonly<Record<string, (streamId: string) => WorkerAgentBuilder>>;
