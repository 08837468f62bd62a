import { AgentError } from '../errors/agentError.js';
import { foldOfStream } from '../loop/foldCache.js';
import type { HookKind, HookRegistry, Hooks, Logger } from '../loop/hooks.js';
import { invokeTool } from '../loop/invokeTool.js';
import { RequestFingerprinter } from '../loop/requestFingerprint.js';
import type { ToolRunner } from '../loop/runScope.js';
import { StreamWriter } from '../loop/streamWriter.js';
import type { ChatCompletion } from '../ports/chatCompletion.js';
import type { EventStore } from '../ports/eventStore.js';
import { modelSecrets } from '../ports/modelSecrets.js';
import { createInMemoryEventStore } from '../store/inMemoryEventStore.js';
import type { Tool } from '../tools/tool.js';
import type { Agent } from './agent.js';
import type { AgentOptions } from './agentOptions.js';
import type { RunWrapper } from './runWrapper.js';

/** Makes the agent once it is assembled (the builder's private constructor hook). */
export type CreateAgent = (
  options: AgentOptions,
  writer: StreamWriter,
  fingerprints: RequestFingerprinter,
  runTool: ToolRunner,
  runWrappers: readonly RunWrapper[],
) => Agent;

/** What a builder was given, unchecked. */
export interface AgentBlueprint {
  readonly model: ChatCompletion | undefined;
  readonly systemPrompt: string | undefined;
  readonly tools: readonly Tool[];
  readonly limit: number | undefined;
  readonly toolRetryLimit: number;
  readonly stopOnAssistant: boolean;
  readonly runLeaseMs: number;
  readonly store: EventStore | undefined;
  readonly streamId: string | undefined;
  readonly clock: () => Date;
  readonly ids: () => string;
  readonly logger: Logger;
  readonly hooks: { readonly [K in HookKind]: readonly Hooks[K][] };
  readonly toolRunner: ToolRunner | undefined;
  readonly runWrappers: readonly RunWrapper[];
}

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * Assembles an agent from a blueprint: checks it, folds the stream if it exists (SPEC RES-1,
 * from this process's fold cache when it can), and wires the writer, the fingerprinter and the
 * tool runner.
 */
export async function assembleAgent(
  blueprint: AgentBlueprint,
  create: CreateAgent,
): Promise<Agent> {
  const { model } = blueprint;
  if (model === undefined || typeof model.complete !== 'function') {
    throw new AgentError(
      'invalidConfiguration',
      'the agent needs a model: call llm(model) before build()',
    );
  }
  const tools = checkTools(blueprint.tools);
  for (const [name, value] of [
    ['limit', blueprint.limit],
    ['toolRetryLimit', blueprint.toolRetryLimit],
    ['runLease', blueprint.runLeaseMs],
  ] as const) {
    if (value !== undefined && (!Number.isInteger(value) || value < 0)) {
      throw new AgentError(
        'invalidConfiguration',
        `${name} must be a whole number of 0 or more, got ${value}`,
      );
    }
  }
  const store = blueprint.store ?? createInMemoryEventStore();
  const streamId = blueprint.streamId ?? `agent-${blueprint.ids()}`;
  const { state, fingerprints } = await foldOfStream(store, streamId, (message) =>
    blueprint.logger.warn(message, { streamId }),
  );
  const hooks = Object.fromEntries(
    Object.entries(blueprint.hooks).map(([kind, list]) => [kind, [...list]]),
  ) as unknown as HookRegistry;
  const options: AgentOptions = {
    model,
    ...(blueprint.systemPrompt === undefined ? {} : { systemPrompt: blueprint.systemPrompt }),
    tools,
    ...(blueprint.limit === undefined ? {} : { limit: blueprint.limit }),
    toolRetryLimit: blueprint.toolRetryLimit,
    stopOnAssistant: blueprint.stopOnAssistant,
    runLeaseMs: blueprint.runLeaseMs,
    store,
    streamId,
    clock: blueprint.clock,
    ids: blueprint.ids,
    hooks,
    logger: blueprint.logger,
    ...(blueprint.toolRunner === undefined ? {} : { toolRunner: blueprint.toolRunner }),
    runWrappers: blueprint.runWrappers,
  };
  const runTool: ToolRunner =
    options.toolRunner ??
    ((toolCall, context) => invokeTool(tools.get(toolCall.name), context, toolCall));
  return create(
    options,
    new StreamWriter(store, streamId, blueprint.clock, blueprint.ids, state, modelSecrets(model)),
    new RequestFingerprinter(fingerprints),
    runTool,
    options.runWrappers,
  );
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
