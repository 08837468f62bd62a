import type { Observable } from 'rxjs';
import type { AgentEvent, RunMode, WorkerIdentity } from '../events/agentEvent.js';
import type { AgentState } from '../events/agentState.js';
import type { RunChannel, RunOptions } from '../api/runOptions.js';
import { runWithChannel } from '../api/runOptions.js';
import type { EventStore } from '../ports/eventStore.js';

/**
 * What a worker needs of an agent (the `Agent` has it all): its stream, its state, its run with
 * the worker's channel, and how to give a run back.
 */
export interface WorkerAgent {
  readonly streamId: string;
  readonly events$: Observable<AgentEvent>;
  state(): AgentState;
  [runWithChannel](
    mode: RunMode,
    input: string | undefined,
    options: RunOptions,
    channel: RunChannel,
  ): Promise<void>;
  releaseRun(worker: WorkerIdentity, options?: { readonly reason?: string }): Promise<void>;
}

/**
 * What a worker needs of an agent's builder (the `AgentBuilder` has it): store, stream, the
 * registered name, build.
 */
export interface WorkerAgentBuilder {
  store(store: EventStore): WorkerAgentBuilder;
  streamId(id: string): WorkerAgentBuilder;
  name(name: string): WorkerAgentBuilder;
  build(): Promise<WorkerAgent>;
}

/**
 * The agents a worker runs, by registered name (`RunRequested.agent`, `RunStarted.agent`): each
 * makes the builder of the agent for a stream; the worker sets its store, stream id and name and
 * builds it.
 */
export type WorkerAgents = Readonly<Record<string, (streamId: string) => WorkerAgentBuilder>>;
