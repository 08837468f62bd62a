import type { Observable } from 'rxjs';
import { decideCommand, foreignRunInProgress, type Command } from '../decider/decideCommand.js';
import { isRunOwned } from '../errors/fenceErrors.js';
import type { DeciderSettings } from '../decider/deciderSettings.js';
import { AgentError } from '../errors/agentError.js';
import type { AgentEvent, RunMode, WorkerIdentity } from '../events/agentEvent.js';
import type { AgentState } from '../events/agentState.js';
import { callsAwaitingDecision, type AwaitedCall } from '../events/stateQueries.js';
import type { StopReason } from '../events/stopReason.js';
import type { ChatMessage } from '../messages/chatMessage.js';
import type { AgentContext } from '../api/agentContext.js';
import type { AgentHandle } from '../api/agentHandle.js';
import { callHooks } from '../loop/callHooks.js';
import { CallerContext } from '../loop/callerContext.js';
import { currentHook } from '../loop/hookScope.js';
import { interpretRun } from '../loop/interpretRun.js';
import type { RequestFingerprinter } from '../events/requestFingerprint.js';
import type { RunScope } from '../loop/runScope.js';
import {
  runWithChannel,
  type RunChannel,
  type RunOptions,
  type ToolRunner,
} from '../api/runOptions.js';
import { ownerId } from './ownerId.js';
import type { RunWrapper } from '../api/runWrapper.js';
import type { StreamWriter } from '../writer/streamWriter.js';
import { AgentBuilder } from './agentBuilder.js';
import type { AgentOptions } from '../api/agentOptions.js';
import { deciderSettingsOf } from './deciderSettingsOf.js';
import { wrapRun } from './wrapRun.js';

/** An open tool call that waits for a person's decision (SPEC HITL-11). */
export type PendingFeedback = AwaitedCall;

/**
 * An agent on one event stream: the façade over the decider and its interpreter. Its state is
 * the fold of that stream (SPEC EVT-1); every command first catches up with events other
 * processes appended, is judged by the decider, and changes nothing but by appended events.
 */
export class Agent implements AgentHandle {
  readonly #scope: RunScope;
  readonly #context: CallerContext;
  readonly #runWrappers: readonly RunWrapper[];
  /** In-process guard only: another process is fenced by the store's claim (SPEC WRK-4, WRK-8). */
  #running = false;

  /** Starts a builder with the default `stop` tool (SPEC STOP-1). */
  static builder(): AgentBuilder {
    return new AgentBuilder(
      (config, writer, fingerprints, runTool, runWrappers) =>
        new Agent(config, writer, fingerprints, runTool, runWrappers),
    );
  }

  private constructor(
    config: AgentOptions,
    writer: StreamWriter,
    fingerprints: RequestFingerprinter,
    runTool: ToolRunner,
    runWrappers: readonly RunWrapper[],
  ) {
    this.#runWrappers = runWrappers;
    const settings: DeciderSettings = deciderSettingsOf(config);
    this.#scope = {
      config,
      settings,
      writer,
      fingerprints,
      agent: this,
      runTool,
      owner: ownerId(),
      options: {},
      channel: {},
    };
    this.#context = new CallerContext(writer, (command, options) => this.#give(command, options));
  }

  /** The id of this agent's stream. */
  get streamId(): string {
    return this.#scope.writer.streamId;
  }

  /** The events this agent appends, as they are stored. */
  get events$(): Observable<AgentEvent> {
    return this.#scope.writer.events$.asObservable();
  }

  /**
   * Adds `text` as a user message and runs until the agent stops (SPEC LOOP-1). `options.signal`
   * aborts the run, `options.onTextDelta` sees the answer's text as it streams (SPEC LOOP-10).
   */
  query(text: string, options?: RunOptions): Promise<void> {
    return this.#run('query', text, options);
  }

  /** Like `query`, with at most one completion (SPEC LOOP-1). */
  queryOnce(text: string, options?: RunOptions): Promise<void> {
    return this.#run('queryOnce', text, options);
  }

  /** Resumes open tool calls and runs on, adding no message (SPEC LOOP-1, HITL-4). */
  run(options?: RunOptions): Promise<void> {
    return this.#run('run', undefined, options);
  }

  /** Like `run`, with at most one completion. */
  runOnce(options?: RunOptions): Promise<void> {
    return this.#run('runOnce', undefined, options);
  }

  /**
   * Stops the agent with `other(text)` (SPEC STOP-9, EVT-7), recorded first as `StopRequested`
   * (with the hook that asked, or `options.by`). During a run, from a hook or from the caller,
   * the current step finishes first and the stop lands when it ends; a pending agent stops at
   * once; on a stopped agent it does nothing (SPEC STOP-7).
   */
  async stop(
    text = 'stopped by the caller',
    options: { readonly by?: string } = {},
  ): Promise<void> {
    const hook = this.#running ? currentHook() : undefined;
    const before = await this.#give({
      kind: 'stop',
      text,
      ...(hook === undefined ? {} : { hook }),
      ...(options.by === undefined ? {} : { by: options.by }),
    });
    if (this.#running) return;
    const after = this.#scope.writer.state;
    if (before.status !== 'stopped' && after.status === 'stopped' && after.stopReason) {
      await callHooks(this.#scope, 'onStop', after.stopReason);
    }
  }

  /** Why the agent stopped; `undefined` while it is pending or running (SPEC STOP-6). */
  stopReason(): StopReason | undefined {
    const state = this.#scope.writer.state;
    return state.status === 'stopped' ? state.stopReason : undefined;
  }

  /** The fold of the stream as this agent last saw it; `refresh()` catches up first. */
  state(): AgentState {
    return this.#scope.writer.state;
  }

  /**
   * Catches up with what other processes appended and returns the state (SPEC RES-4): a worker
   * checks whether a run is still to do before it calls `run()`. During this agent's own run it
   * returns the run's state.
   */
  async refresh(): Promise<AgentState> {
    if (!this.#running) await this.#scope.writer.catchUp();
    return this.#scope.writer.state;
  }

  /** The whole history, summaries included. */
  history(): readonly ChatMessage[] {
    return this.#scope.writer.state.history;
  }

  /** Feedback and history access for callers (SPEC HITL-3). */
  context(): AgentContext {
    return this.#context;
  }

  /**
   * Every open call that waits for a decision, not only the first, and none that holds one
   * already (SPEC HITL-11).
   */
  pendingFeedback(): PendingFeedback[] {
    return callsAwaitingDecision(this.#scope.writer.state);
  }

  /**
   * Whether a worker continues this agent's run once every call it stopped for holds a decision
   * (SPEC WRK-2, the builder's `continueAfterDecision`).
   */
  get continuesAfterDecision(): boolean {
    return this.#scope.config.continueAfterDecision !== false;
  }

  /** How long a run of this agent is leased after each of its appends (SPEC RES-3, WRK-4). */
  get runLeaseMs(): number {
    return this.#scope.config.runLeaseMs;
  }

  /**
   * Records on this agent's stream that a run of the registered agent `agentName` is wanted
   * (SPEC WRK-1): a worker that has the agent takes it. Refused while a run holds the stream or a
   * request is pending; a request without input is refused when there is nothing to run.
   */
  async requestRun(
    agentName: string,
    options: { readonly input?: string; readonly by?: string } = {},
  ): Promise<void> {
    await this.#give({ kind: 'requestRun', agent: agentName, ...options });
  }

  /**
   * Gives back the run `worker` holds on this agent's stream (SPEC WRK-5): another worker may
   * continue it at once. Does nothing when it was released already; rejects with a
   * `LeaseLostError` when another worker took the run.
   */
  async releaseRun(
    worker: WorkerIdentity,
    options: { readonly reason?: string } = {},
  ): Promise<void> {
    const fence = this.#scope.writer.lastFence;
    await this.#give(
      {
        kind: 'releaseRun',
        worker,
        ...(options.reason === undefined ? {} : { reason: options.reason }),
      },
      // Stated, so a worker whose run another claimed since releases nothing (SPEC WRK-8).
      fence === undefined ? {} : { fence },
    );
  }

  /** Adds a summary: the model sees nothing before it but system messages (SPEC MSG-4). */
  async addSummary(text: string): Promise<void> {
    await this.#give({ kind: 'addSummary', text });
  }

  /** A run with what only the worker or a replay gives it (SPEC WRK-7, RPL-5). */
  [runWithChannel](
    mode: RunMode,
    input: string | undefined,
    options: RunOptions,
    channel: RunChannel,
  ): Promise<void> {
    return this.#run(mode, input, options, channel);
  }

  async #run(
    mode: RunMode,
    input?: string,
    options: RunOptions = {},
    channel: RunChannel = {},
  ): Promise<void> {
    if (this.#running) {
      throw new AgentError('alreadyRunning', `agent ${this.streamId} is already running`);
    }
    this.#running = true;
    try {
      const run = async (): Promise<void> => {
        await this.#scope.writer.catchUp();
        await interpretRun(this.#scope, mode, input, options, channel);
      };
      if (this.#runWrappers.length === 0) await run();
      else await wrapRun(this.#runWrappers, run, { agent: this, mode, options });
    } finally {
      this.#running = false;
    }
  }

  /**
   * A caller's command outside the loop: catch up with what others appended (unless this agent's
   * own run is in progress), let the decider judge it, append what it decides. Resolves with the
   * state the command was decided on.
   */
  async #give(
    command: Command,
    options: { readonly durable?: boolean; readonly fence?: number } = {},
  ): Promise<AgentState> {
    const { writer, settings } = this.#scope;
    if (!this.#running) await writer.catchUp();
    const before = writer.state;
    const context = { ownRun: this.#running || writer.ownsCurrentRun(), inRun: this.#running };
    // During this agent's own run the interpreter is the only writer: the command's events go
    // in with the run's next commit.
    if (this.#running) {
      writer.defer(decideCommand(before, settings, command, context));
      return before;
    }
    if (command.kind === 'stop' && foreignRunInProgress(before, context)) {
      // Another process's run: a claim stops it at once if the store says its lease lapsed (its
      // process died); while it is live, the stop is only requested, and that run honours it.
      try {
        writer.claimNext({ owner: this.#scope.owner, leaseMs: Math.max(1, settings.runLeaseMs) });
        await writer.append(decideCommand(before, settings, command, { ...context, claims: true }));
        return before;
      } catch (error) {
        if (!isRunOwned(error)) throw error;
      } finally {
        writer.endRun();
      }
    }
    const events = decideCommand(before, settings, command, context);
    if (events.length > 0) await writer.append(events, options);
    return before;
  }
}
