import { AgentError } from '../errors/agentError.js';
import { foldOfStream } from '../writer/foldCache.js';
import type { HookKind, Hooks, Logger } from '../api/hooks.js';
import { invokeTool } from '../loop/invokeTool.js';
import { RequestFingerprinter } from '../events/requestFingerprint.js';
import type { ToolRunner } from '../api/runOptions.js';
import { StreamWriter } from '../writer/streamWriter.js';
import type { ChatCompletion } from '../ports/chatCompletion.js';
import type { EventStore } from '../ports/eventStore.js';
import { modelSecrets } from '../ports/modelSecrets.js';
import { stopTool } from '../tools/stopTool.js';
import type { Tool } from '../api/tool.js';
import type { Agent } from './agent.js';
import type { AgentOptions, AgentOptionsDraft } from '../api/agentOptions.js';
import { resolveOptions } from './resolveOptions.js';
import { deciderSettingsOf } from './deciderSettingsOf.js';
import { workEntry } from '../decider/workStatus.js';
import type { RunWrapper } from '../api/runWrapper.js';

/** Makes the agent once it is assembled (the builder's private constructor hook). */
export type CreateAgent = (
  options: AgentOptions,
  writer: StreamWriter,
  fingerprints: RequestFingerprinter,
  runTool: ToolRunner,
  runWrappers: readonly RunWrapper[],
) => Agent;

/**
 * Configures an agent (DESIGN: public API). Starts with the default `stop` tool; `tools()` keeps
 * it unless `withoutDefaultStopTool()` was called first (SPEC STOP-4). `build()` folds the stream
 * if it exists (SPEC RES-1).
 */
export class AgentBuilder {
  /** Every option given so far, unchecked; `build()` resolves it (see {@link resolveOptions}). */
  readonly #draft: AgentOptionsDraft = {
    tools: [stopTool()],
    runWrappers: [],
    hooks: {
      beforeAll: [],
      onStart: [],
      beforeCompletion: [],
      afterCompletion: [],
      beforeTool: [],
      afterTool: [],
      afterEach: [],
      onNewMessage: [],
      onStop: [],
      onStream: [],
    },
  };
  #withoutDefaultStop = false;
  #toolMappers: ((tool: Tool) => Tool)[] = [];
  #modelMappers: ((model: ChatCompletion) => ChatCompletion)[] = [];

  constructor(private readonly create: CreateAgent) {}

  /** The model the agent asks (a `ChatCompletion`). Required. */
  llm(model: ChatCompletion): this {
    this.#draft.model = model;
    return this;
  }

  /** The system prompt, added once on the agent's first run. */
  systemPrompt(text: string): this {
    this.#draft.systemPrompt = text;
    return this;
  }

  /** Drops the default `stop` tool; takes effect in the next `tools()` call (SPEC STOP-4). */
  withoutDefaultStopTool(): this {
    this.#withoutDefaultStop = true;
    return this;
  }

  /**
   * Sets the tools: the default `stop` (unless dropped before) plus these. A tool named like the
   * default `stop` loses to it (SPEC STOP-4); two of these with one name fail at `build()`.
   */
  tools(tools: readonly Tool[]): this {
    const defaults = this.#withoutDefaultStop ? [] : [stopTool()];
    const given = tools.filter((tool) => !defaults.some((kept) => kept.name === tool?.name));
    this.#draft.tools = [...defaults, ...given];
    return this;
  }

  /** Adds a tool, replacing one of the same name (SPEC STOP-4). */
  addTool(tool: Tool): this {
    this.#draft.tools = [
      ...this.#draft.tools.filter((existing) => existing.name !== tool?.name),
      tool,
    ];
    return this;
  }

  /**
   * Replaces every tool, at `build()`, by `map(tool)`: a wrapper that keeps name and spec. Replay
   * uses it to serve recorded tool outcomes (SPEC RPL-2).
   */
  mapTools(map: (tool: Tool) => Tool): this {
    this.#toolMappers = [...this.#toolMappers, map];
    return this;
  }

  /**
   * Replaces the model, at `build()`, by `map(model)`: a wrapper that answers as the model does and
   * keeps its `secrets()`, so whichever `llm()` was given, before or after, is wrapped.
   */
  mapModel(map: (model: ChatCompletion) => ChatCompletion): this {
    if (typeof map !== 'function') {
      throw new AgentError('invalidConfiguration', 'mapModel needs a function');
    }
    this.#modelMappers = [...this.#modelMappers, map];
    return this;
  }

  /**
   * Adds code around each run (a tracing span, say), the first added outermost: it must call
   * `run` once and settle as it does (see {@link RunWrapper}). It changes no event.
   */
  aroundRun(wrapper: RunWrapper): this {
    if (typeof wrapper !== 'function') {
      throw new AgentError('invalidConfiguration', 'aroundRun needs a function');
    }
    this.#draft.runWrappers = [...this.#draft.runWrappers, wrapper];
    return this;
  }

  /**
   * Gets every tool's own result from `runner` instead of running the tool: how a replay serves
   * the recorded results (SPEC RPL-5). Hooks still run on them.
   */
  serveToolResults(runner: ToolRunner): this {
    this.#draft.toolRunner = runner;
    return this;
  }

  /** Caps completions per run (SPEC LOOP-5). No limit by default. */
  limit(completions: number): this {
    this.#draft.limit = completions;
    return this;
  }

  /** How often one call (name + args) may fail before the agent stops (SPEC TOOL-3). Default 3. */
  toolRetryLimit(failures: number): this {
    this.#draft.toolRetryLimit = failures;
    return this;
  }

  /** Whether a plain text answer ends the run (SPEC LOOP-3). Default true. */
  stopOnAssistant(stop: boolean): this {
    this.#draft.stopOnAssistant = stop;
    return this;
  }

  /**
   * How long a run's lease lasts after its claim, each of its appends and each renewal, by the
   * store's clock; while another process's lease is live, the store refuses this agent's run with
   * `RunOwnedError` (SPEC RES-3, WRK-4). Default 5 minutes.
   */
  runLease(ms: number): this {
    this.#draft.runLeaseMs = ms;
    return this;
  }

  /**
   * The agent's registered name (SPEC WRK-9): each run records it, so a worker whose `agents`
   * registry has the name continues the stream after a decision or a crash, however the run
   * started. A worker sets it to the name it found the stream under.
   */
  name(name: string): this {
    this.#draft.name = name;
    return this;
  }

  /**
   * Whether a worker continues the agent's run once every call it stopped for holds a decision
   * (SPEC WRK-2). Default true; with false, a decided stream waits for the caller's `run()`.
   */
  continueAfterDecision(resume: boolean): this {
    this.#draft.continueAfterDecision = resume;
    return this;
  }

  /** The event store. Default: a new in-memory store. */
  store(store: EventStore): this {
    this.#draft.store = store;
    return this;
  }

  /** The stream id. Default: a generated id. */
  streamId(id: string): this {
    this.#draft.streamId = id;
    return this;
  }

  /** The clock that stamps events (SPEC EVT-2). Default: the wall clock. */
  clock(clock: () => Date): this {
    this.#draft.clock = clock;
    return this;
  }

  /**
   * The id generator for events and missing tool-call ids (SPEC EVT-2). Default: `uuidV7`,
   * time-ordered UUIDs, which database indexes take much faster than random ones.
   */
  ids(ids: () => string): this {
    this.#draft.ids = ids;
    return this;
  }

  /** Where warnings go, the model's retried requests among them. Default: `console.warn`. */
  logger(logger: Logger): this {
    this.#draft.logger = logger;
    return this;
  }

  /** Adds a `beforeAll` hook (SPEC LOOP-9). */
  beforeAll(hook: Hooks['beforeAll']): this {
    return this.#hook('beforeAll', hook);
  }
  /** Adds an `onStart` hook. */
  onStart(hook: Hooks['onStart']): this {
    return this.#hook('onStart', hook);
  }
  /** Adds a `beforeCompletion` hook; it may return a changed request. */
  beforeCompletion(hook: Hooks['beforeCompletion']): this {
    return this.#hook('beforeCompletion', hook);
  }
  /** Adds an `afterCompletion` hook; it may return a changed response. */
  afterCompletion(hook: Hooks['afterCompletion']): this {
    return this.#hook('afterCompletion', hook);
  }
  /** Adds a `beforeTool` hook. */
  beforeTool(hook: Hooks['beforeTool']): this {
    return this.#hook('beforeTool', hook);
  }
  /** Adds an `afterTool` hook; it may replace the result (SPEC STOP-8). */
  afterTool(hook: Hooks['afterTool']): this {
    return this.#hook('afterTool', hook);
  }
  /** Adds an `afterEach` hook. */
  afterEach(hook: Hooks['afterEach']): this {
    return this.#hook('afterEach', hook);
  }
  /** Adds an `onNewMessage` hook; it may replace the message. */
  onNewMessage(hook: Hooks['onNewMessage']): this {
    return this.#hook('onNewMessage', hook);
  }
  /** Adds an `onStream` hook: it sees each chunk of a streamed answer (SPEC LOOP-10). */
  onStream(hook: Hooks['onStream']): this {
    return this.#hook('onStream', hook);
  }
  /** Adds an `onStop` hook; it fires once per run. */
  onStop(hook: Hooks['onStop']): this {
    return this.#hook('onStop', hook);
  }

  /**
   * Checks the options and fills in their defaults ({@link resolveOptions}), folds the stream if it
   * exists (SPEC RES-1, from this process's fold cache when it can) and returns the agent.
   */
  build(): Promise<Agent> {
    return this.#assemble({
      ...this.#draft,
      model: this.#mappedModel(),
      tools: this.#draft.tools.map((tool) =>
        this.#toolMappers.reduce((mapped, map) => map(mapped), tool),
      ),
    });
  }

  /** Resolves the options and wires the writer, the fingerprinter and the tool runner. */
  async #assemble(draft: AgentOptionsDraft): Promise<Agent> {
    const options = resolveOptions(draft);
    const { model, tools, store, streamId, clock, ids, logger } = options;
    const settings = deciderSettingsOf(options);
    const { state, fingerprints } = await foldOfStream(store, streamId, (message) =>
      logger.warn(message, { streamId }),
    );
    const runTool: ToolRunner =
      options.toolRunner ??
      ((toolCall, context) => invokeTool(tools.get(toolCall.name), context, toolCall));
    return this.create(
      options,
      new StreamWriter(store, streamId, clock, ids, state, modelSecrets(model), (folded, owner) =>
        workEntry(folded, settings, owner),
      ),
      new RequestFingerprinter(fingerprints),
      runTool,
      options.runWrappers,
    );
  }

  /** The model through every `mapModel` map; one that is no model is left for `build()` to refuse. */
  #mappedModel(): ChatCompletion | undefined {
    const model = this.#draft.model;
    if (model === undefined || typeof model.complete !== 'function') return model;
    return this.#modelMappers.reduce((mapped, map) => map(mapped), model);
  }

  #hook<K extends HookKind>(kind: K, hook: Hooks[K]): this {
    if (typeof hook !== 'function') {
      throw new AgentError('invalidConfiguration', `${kind} needs a function`);
    }
    (this.#draft.hooks[kind] as Hooks[K][]).push(hook);
    return this;
  }
}
