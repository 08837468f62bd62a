import { DEFAULT_SETTINGS } from '../decider/deciderSettings.js';
import { AgentError } from '../errors/agentError.js';
import type { HookRegistry, Logger } from '../api/hooks.js';
import { createInMemoryEventStore } from '../store/inMemoryEventStore.js';
import { AGENT_NAME } from '../store/workIndexChecks.js';
import { uuidV7 } from '../support/uuidV7.js';
import type { Tool } from '../api/tool.js';
import type { AgentOptions, AgentOptionsDraft } from '../api/agentOptions.js';

const consoleLogger: Logger = {
  warn: (message, details) => console.warn(`[agentlog] ${message}`, details ?? ''),
};

const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * The default clock, one function for every agent: code that V8 compiled for one agent's clock
 * calls the next agent's without being thrown away ("wrong call target").
 */
const wallClock = (): Date => new Date();

/**
 * Checks a builder's draft and fills in every default, once: the only place an option's default
 * is applied (the decider's own defaults come from `DEFAULT_SETTINGS`). Throws
 * `AgentError('invalidConfiguration')` naming the first bad option or tool.
 */
export function resolveOptions(draft: AgentOptionsDraft): AgentOptions {
  const { model } = draft;
  if (model === undefined || typeof model.complete !== 'function') {
    throw new AgentError(
      'invalidConfiguration',
      'the agent needs a model: call llm(model) before build()',
    );
  }
  const tools = checkTools(draft.tools);
  for (const [name, value] of [
    ['limit', draft.limit],
    ['toolRetryLimit', draft.toolRetryLimit],
    ['runLease', draft.runLeaseMs],
  ] as const) {
    if (value !== undefined && (!Number.isInteger(value) || value < 0)) {
      throw new AgentError(
        'invalidConfiguration',
        `${name} must be a whole number of 0 or more, got ${value}`,
      );
    }
  }
  const { name } = draft;
  if (name !== undefined && (typeof name !== 'string' || !AGENT_NAME.test(name))) {
    throw new AgentError(
      'invalidConfiguration',
      `name must be 1 to 128 letters, digits, '.', '_', ':' or '-', got ${JSON.stringify(name) ?? typeof name}`,
    );
  }
  const ids = draft.ids ?? uuidV7;
  const hooks = Object.fromEntries(
    Object.entries(draft.hooks).map(([kind, list]) => [kind, [...list]]),
  ) as unknown as HookRegistry;
  return {
    model,
    ...(draft.systemPrompt === undefined ? {} : { systemPrompt: draft.systemPrompt }),
    tools,
    ...(draft.limit === undefined ? {} : { limit: draft.limit }),
    toolRetryLimit: draft.toolRetryLimit ?? DEFAULT_SETTINGS.toolRetryLimit,
    stopOnAssistant: draft.stopOnAssistant ?? DEFAULT_SETTINGS.stopOnAssistant,
    runLeaseMs: draft.runLeaseMs ?? DEFAULT_SETTINGS.runLeaseMs,
    ...(name === undefined ? {} : { name }),
    ...(draft.continueAfterDecision === false ? { continueAfterDecision: false } : {}),
    store: draft.store ?? createInMemoryEventStore(),
    streamId: draft.streamId ?? `agent-${ids()}`,
    clock: draft.clock ?? wallClock,
    ids,
    hooks,
    logger: draft.logger ?? consoleLogger,
    ...(draft.toolRunner === undefined ? {} : { toolRunner: draft.toolRunner }),
    runWrappers: [...draft.runWrappers],
  };
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
