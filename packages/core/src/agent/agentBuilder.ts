import { AgentError } from '../errors/agentError.js';
import { foldOfStream } from '../loop/foldCache.js';
import { RequestFingerprinter } from '../loop/requestFingerprint.js';
import { StreamWriter } from '../loop/streamWriter.js';
import type { ChatCompletion } from '../ports/chatCompletion.js';
import type { EventStore } from '../ports/eventStore.js';
import { createInMemoryEventStore } from '../store/inMemoryEventStore.js';
import { stopTool } from '../tools/stopTool.js';
import { uuidV7 } from '../support/uuidV7.js';
import type { Tool } from '../tools/tool.js';
import type { Agent } from './agent.js';
import type { AgentConfig } from './agentConfig.js';
import type { HookKind, HookRegistry, Hooks, Logger } from './hooks.js';

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const consoleLogger: Logger = {
  warn: (message, details) => console.warn(`[agentlog] ${message}`, details ?? ''),
};

/**
 * Configures an agent (DESIGN: public API). Starts with the default `stop` tool; `tools()` keeps
 * it unless `withoutDefaultStopTool()` was called first (SPEC STOP-4). `build()` folds the stream
 * if it exists (SPEC RES-1).
 */
export class AgentBuilder {
  #model: ChatCompletion | undefined;
  #systemPrompt: string | undefined;
  #withoutDefaultStop = false;
  #tools: Tool[] = [stopTool()];
  #toolMappers: ((tool: Tool) => Tool)[] = [];
  #limit: number | undefined;
  #toolRetryLimit = 3;
  #stopOnAssistant = true;
  #runLeaseMs = 5 * 60_000;
  #store: EventStore | undefined;
  #streamId: string | undefined;
  #clock: () => Date = () => new Date();
  #ids: () => string = uuidV7;
  #logger: Logger = consoleLogger;
  readonly #hooks: { [K in HookKind]: Hooks[K][] } = {
    beforeAll: [],
    onStart: [],
    beforeCompletion: [],
    afterCompletion: [],
    beforeTool: [],
    afterTool: [],
    afterEach: [],
    onNewMessage: [],
    onStop: [],
  };

  constructor(
    private readonly create: (
      config: AgentConfig,
      writer: StreamWriter,
      fingerprints: RequestFingerprinter,
    ) => Agent,
  ) {}

  /** The model the agent asks (a `ChatCompletion`). Required. */
  llm(model: ChatCompletion): this {
    this.#model = model;
    return this;
  }

  /** The system prompt, added once on the agent's first run. */
  systemPrompt(text: string): this {
    this.#systemPrompt = text;
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
    this.#tools = [...defaults, ...given];
    return this;
  }

  /** Adds a tool, replacing one of the same name (SPEC STOP-4). */
  addTool(tool: Tool): this {
    this.#tools = [...this.#tools.filter((existing) => existing.name !== tool?.name), tool];
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

  /** Caps completions per run (SPEC LOOP-5). No limit by default. */
  limit(completions: number): this {
    this.#limit = completions;
    return this;
  }

  /** How often one call (name + args) may fail before the agent stops (SPEC TOOL-3). Default 3. */
  toolRetryLimit(failures: number): this {
    this.#toolRetryLimit = failures;
    return this;
  }

  /** Whether a plain text answer ends the run (SPEC LOOP-3). Default true. */
  stopOnAssistant(stop: boolean): this {
    this.#stopOnAssistant = stop;
    return this;
  }

  /**
   * How long another process's run owns the stream after its last event; until then `run` and
   * `query` reject with `ConcurrencyError` (SPEC RES-3). Default 5 minutes.
   */
  runLease(ms: number): this {
    this.#runLeaseMs = ms;
    return this;
  }

  /** The event store. Default: a new in-memory store. */
  store(store: EventStore): this {
    this.#store = store;
    return this;
  }

  /** The stream id. Default: a generated id. */
  streamId(id: string): this {
    this.#streamId = id;
    return this;
  }

  /** The clock that stamps events (SPEC EVT-2). Default: the wall clock. */
  clock(clock: () => Date): this {
    this.#clock = clock;
    return this;
  }

  /**
   * The id generator for events and missing tool-call ids (SPEC EVT-2). Default: `uuidV7`,
   * time-ordered UUIDs, which database indexes take much faster than random ones.
   */
  ids(ids: () => string): this {
    this.#ids = ids;
    return this;
  }

  /** Where warnings go. Default: `console.warn`. */
  logger(logger: Logger): this {
    this.#logger = logger;
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
  /** Adds an `onStop` hook; it fires once per run. */
  onStop(hook: Hooks['onStop']): this {
    return this.#hook('onStop', hook);
  }

  /** Checks the configuration, folds the stream if it exists (SPEC RES-1) and returns the agent. */
  async build(): Promise<Agent> {
    const model = this.#model;
    if (model === undefined || typeof model.complete !== 'function') {
      throw new AgentError(
        'invalidConfiguration',
        'the agent needs a model: call llm(model) before build()',
      );
    }
    const tools = checkTools(
      this.#tools.map((tool) => this.#toolMappers.reduce((mapped, map) => map(mapped), tool)),
    );
    for (const [name, value] of [
      ['limit', this.#limit],
      ['toolRetryLimit', this.#toolRetryLimit],
    ] as const) {
      if (value !== undefined && (!Number.isInteger(value) || value < 0)) {
        throw new AgentError(
          'invalidConfiguration',
          `${name} must be a whole number of 0 or more, got ${value}`,
        );
      }
    }
    const store = this.#store ?? createInMemoryEventStore();
    const streamId = this.#streamId ?? `agent-${this.#ids()}`;
    const { state, fingerprints } = await foldOfStream(store, streamId, (message) =>
      this.#logger.warn(message, { streamId }),
    );
    const hooks: HookRegistry = Object.fromEntries(
      Object.entries(this.#hooks).map(([kind, list]) => [kind, [...list]]),
    ) as unknown as HookRegistry;
    const config: AgentConfig = {
      model,
      ...(this.#systemPrompt === undefined ? {} : { systemPrompt: this.#systemPrompt }),
      tools,
      ...(this.#limit === undefined ? {} : { limit: this.#limit }),
      toolRetryLimit: this.#toolRetryLimit,
      stopOnAssistant: this.#stopOnAssistant,
      runLeaseMs: this.#runLeaseMs,
      store,
      streamId,
      clock: this.#clock,
      ids: this.#ids,
      hooks,
      logger: this.#logger,
    };
    return this.create(
      config,
      new StreamWriter(store, streamId, this.#clock, this.#ids, state),
      new RequestFingerprinter(fingerprints),
    );
  }

  #hook<K extends HookKind>(kind: K, hook: Hooks[K]): this {
    if (typeof hook !== 'function') {
      throw new AgentError('invalidConfiguration', `${kind} needs a function`);
    }
    (this.#hooks[kind] as Hooks[K][]).push(hook);
    return this;
  }
}

function checkTools(tools: readonly Tool[]): Map<string, Tool> {
  const byName = new Map<string, Tool>();
  for (const tool of tools) {
    const name = tool?.name;
    const invalid = (problem: string): AgentError =>
      new AgentError('invalidConfiguration', `tool ${String(name)}: ${problem}`);
    if (typeof name !== 'string' || !TOOL_NAME.test(name)) {
      throw invalid('a tool name is 1 to 64 letters, digits, _ or -');
    }
    if (byName.has(name)) throw invalid('two tools have this name; give each tool its own name');
    if (typeof tool.invoke !== 'function' || typeof tool.spec !== 'function') {
      throw invalid('a tool needs spec() and invoke(context, toolCall)');
    }
    const spec = tool.spec();
    if (spec.name !== name) throw invalid(`its spec is named ${spec.name}`);
    const parameters = spec.parameters as { type?: unknown } | null;
    if (parameters === null || typeof parameters !== 'object' || parameters.type !== 'object') {
      throw invalid('its parameters must be a JSON schema of type object');
    }
    byName.set(name, tool);
  }
  return byName;
}
