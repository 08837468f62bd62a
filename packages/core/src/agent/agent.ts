import type { Observable } from 'rxjs';
import { AgentError } from '../errors/agentError.js';
import { ConcurrencyError } from '../errors/concurrencyError.js';
import type { AgentEvent, RunMode } from '../events/agentEvent.js';
import type { AgentState, ToolCallState } from '../events/agentState.js';
import type { ChatMessage } from '../messages/chatMessage.js';
import { hasWork } from '../loop/pendingWork.js';
import type { RequestFingerprinter } from '../loop/requestFingerprint.js';
import { runAgent } from '../loop/runAgent.js';
import type { RunScope } from '../loop/runScope.js';
import { stopAgent } from '../loop/stopAgent.js';
import type { StreamWriter } from '../loop/streamWriter.js';
import { ToolContext } from '../loop/toolContext.js';
import type { AgentConfig } from './agentConfig.js';
import type { AgentContext } from './agentContext.js';
import { AgentBuilder } from './agentBuilder.js';
import type { StopReason } from './stopReason.js';
import { unansweredCalls } from '../events/stateQueries.js';

/** An open tool call that waits for a person's decision (SPEC HITL-11). */
export type PendingFeedback = Pick<
  ToolCallState,
  'toolCall' | 'feedbackPayload' | 'ambiguous' | 'shadowed'
>;

/**
 * An agent on one event stream. Its state is the fold of that stream (SPEC EVT-1); every command
 * first catches up with events other processes appended, and every change is an appended event.
 */
export class Agent {
  readonly #config: AgentConfig;
  readonly #writer: StreamWriter;
  readonly #context: ToolContext;
  readonly #fingerprints: RequestFingerprinter;
  /** In-process guard only: another process is fenced by the stream revision (SPEC RES-3). */
  #running = false;

  /** Starts a builder with the default `stop` tool (SPEC STOP-1). */
  static builder(): AgentBuilder {
    return new AgentBuilder(
      (config, writer, fingerprints) => new Agent(config, writer, fingerprints),
    );
  }

  private constructor(
    config: AgentConfig,
    writer: StreamWriter,
    fingerprints: RequestFingerprinter,
  ) {
    this.#fingerprints = fingerprints;
    this.#config = config;
    this.#writer = writer;
    this.#context = new ToolContext(writer, {
      deferConsumption: false,
      beforeCommand: () => this.#catchUpIfIdle(),
      beforeDecision: async () => {
        if (!this.#running) await this.#writer.catchUp();
      },
    });
  }

  /** The id of this agent's stream. */
  get streamId(): string {
    return this.#writer.streamId;
  }

  /** The events this agent appends, as they are stored. */
  get events$(): Observable<AgentEvent> {
    return this.#writer.events$.asObservable();
  }

  /** Adds `text` as a user message and runs until the agent stops (SPEC LOOP-1). */
  query(text: string): Promise<void> {
    return this.#run('query', text);
  }

  /** Like `query`, with at most one completion (SPEC LOOP-1). */
  queryOnce(text: string): Promise<void> {
    return this.#run('queryOnce', text);
  }

  /** Resumes open tool calls and runs on, adding no message (SPEC LOOP-1, HITL-4). */
  run(): Promise<void> {
    return this.#run('run');
  }

  /** Like `run`, with at most one completion. */
  runOnce(): Promise<void> {
    return this.#run('runOnce');
  }

  /**
   * Stops the agent with `other(text)` (SPEC STOP-9). From a hook the current step finishes first;
   * on a stopped agent it does nothing (SPEC STOP-7).
   */
  async stop(text = 'stopped by the caller'): Promise<void> {
    await this.#catchUpIfIdle();
    await stopAgent(this.#scope(), { kind: 'other', text }, 'stoppedByCaller');
  }

  /** Why the agent stopped; `undefined` while it is pending or running (SPEC STOP-6). */
  stopReason(): StopReason | undefined {
    const state = this.#writer.state;
    return state.status === 'stopped' ? state.stopReason : undefined;
  }

  /** The fold of the stream as this agent last saw it. */
  state(): AgentState {
    return this.#writer.state;
  }

  /** The whole history, summaries included. */
  history(): readonly ChatMessage[] {
    return this.#writer.state.history;
  }

  /** Feedback and history access for callers (SPEC HITL-3). */
  context(): AgentContext {
    return this.#context;
  }

  /** Every open call that waits for a decision, not only the first (SPEC HITL-11). */
  pendingFeedback(): PendingFeedback[] {
    return unansweredCalls(this.#writer.state)
      .filter((call) => call.status === 'waiting')
      .map(({ toolCall, feedbackPayload, ambiguous, shadowed }) => ({
        toolCall,
        ...(feedbackPayload === undefined ? {} : { feedbackPayload }),
        ...(ambiguous === undefined ? {} : { ambiguous }),
        ...(shadowed === undefined ? {} : { shadowed }),
      }));
  }

  /** Adds a summary: the model sees nothing before it but system messages (SPEC MSG-4). */
  async addSummary(text: string): Promise<void> {
    await this.#catchUpIfIdle();
    await this.#writer.append([{ type: 'SummaryAdded', data: { text } }]);
  }

  async #run(mode: RunMode, input?: string): Promise<void> {
    if (this.#running) {
      throw new AgentError('alreadyRunning', `agent ${this.streamId} is already running`);
    }
    if (input !== undefined && typeof input !== 'string') {
      throw new AgentError('invalidConfiguration', `${mode} needs a text, got ${typeof input}`);
    }
    this.#running = true;
    try {
      await this.#writer.catchUp();
      this.#refuseForeignRun();
      const { systemPrompt, stopOnAssistant } = this.#config;
      const work = hasWork(this.#writer.state, {
        systemPrompt: systemPrompt !== undefined,
        stopOnAssistant,
      });
      if (input === undefined && !work) {
        throw new AgentError(
          'nothingToRun',
          `agent ${this.streamId} has nothing to run: no open tool calls, no queued or new messages`,
        );
      }
      await runAgent(this.#scope(), mode, input);
    } finally {
      this.#running = false;
    }
  }

  /**
   * The stream says a run is in progress and it is not ours: another process owns it until its
   * lease runs out (then it counts as crashed, and resuming applies SPEC TOOL-7).
   */
  #refuseForeignRun(): void {
    const { status, lastEventAt, revision } = this.#writer.state;
    if (status !== 'running' || lastEventAt === undefined) return;
    const idleMs = this.#config.clock().getTime() - Date.parse(lastEventAt);
    // An unreadable time cannot hold a lease; a negative idle time (clocks that disagree) does.
    if (Number.isNaN(idleMs) || idleMs >= this.#config.runLeaseMs) return;
    throw new ConcurrencyError(
      this.streamId,
      revision,
      revision,
      `stream ${this.streamId} has a run in progress in another process (last event at revision ${revision}, ${idleMs} ms ago); it owns the stream until ${this.#config.runLeaseMs} ms after its last event`,
    );
  }

  /** Before a caller's command outside a run: see what others appended, and respect their run. */
  async #catchUpIfIdle(): Promise<void> {
    if (this.#running) return;
    await this.#writer.catchUp();
    this.#refuseForeignRun();
  }

  #scope(): RunScope {
    return {
      agent: this,
      config: this.#config,
      writer: this.#writer,
      fingerprints: this.#fingerprints,
    };
  }
}
