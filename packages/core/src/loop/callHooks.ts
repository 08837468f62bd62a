import { describeThrown } from '../errors/toolError.js';
import type { HookKind, Hooks } from '../api/hooks.js';
import { AgentError } from '../errors/agentError.js';
import { isAgentlogError } from '../errors/agentlogError.js';
import { toolCallCheck } from '../events/eventSchemas.js';
import { toolOutputProblem } from '../events/canonicalToolOutput.js';
import { arrayOf } from '../support/checks.js';
import { inHook } from './hookScope.js';
import type { RunScope } from './runScope.js';

type Rest<K extends HookKind> = Parameters<Hooks[K]> extends [unknown, ...infer R] ? R : never;

/** Runs every hook of one kind in order; a hook's failure becomes `AgentError('hookFailed')`. */
export function callHooks<K extends HookKind>(
  scope: RunScope,
  kind: K,
  ...args: Rest<K>
): Promise<void> | undefined {
  const hooks = scope.config.hooks[kind];
  // Most kinds have no hook: then a step pays nothing for them, not even a promise.
  return hooks.length === 0 ? undefined : runHooks(scope, kind, hooks, args);
}

async function runHooks(
  scope: RunScope,
  kind: HookKind,
  hooks: readonly unknown[],
  args: readonly unknown[],
): Promise<void> {
  for (const hook of hooks) {
    await guarded(kind, () => (hook as (...all: unknown[]) => unknown)(scope.agent, ...args));
  }
}

/**
 * Runs hooks that may replace a value: each gets what the previous one returned (or was given,
 * when it returned nothing).
 */
export function transformWithHooks<K extends HookKind, V>(
  scope: RunScope,
  kind: K,
  value: V,
  before: readonly unknown[] = [],
): Promise<V> | V {
  const hooks = scope.config.hooks[kind];
  return hooks.length === 0 ? value : runTransforms(scope, kind, hooks, value, before);
}

async function runTransforms<V>(
  scope: RunScope,
  kind: HookKind,
  hooks: readonly unknown[],
  value: V,
  before: readonly unknown[],
): Promise<V> {
  let current = value;
  for (const hook of hooks) {
    const replaced = await guarded(kind, () =>
      (hook as (...all: unknown[]) => unknown)(scope.agent, ...before, current),
    );
    if (replaced === undefined) continue;
    // A stray return value (say, the boolean of a console write) must not replace real data.
    if (!replacementShapes[kind](replaced)) {
      throw new AgentError(
        'hookFailed',
        `a ${kind} hook returned ${describe(replaced)}, which is not ${replacementNames[kind]}; return undefined to keep the value`,
      );
    }
    // What is recorded must read back: the value is checked as its stored event will be (EVT-6).
    const problem = replacementProblem(kind, replaced);
    if (problem !== undefined) {
      throw new AgentError(
        'hookFailed',
        `a ${kind} hook returned ${replacementNames[kind]} that cannot be recorded: ${problem}`,
      );
    }
    current = replaced as V;
  }
  return current;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object';

const replacementShapes: Record<HookKind, (value: unknown) => boolean> = {
  beforeCompletion: (value) =>
    isObject(value) && Array.isArray(value.messages) && Array.isArray(value.tools),
  afterCompletion: (value) => isObject(value),
  afterTool: (value) =>
    isObject(value) &&
    ((value.ok === true && isObject(value.output) && typeof value.output.kind === 'string') ||
      (value.ok === false && value.error instanceof Error)),
  onNewMessage: (value) => isObject(value) && typeof value.role === 'string',
  beforeAll: () => false,
  onStart: () => false,
  beforeTool: () => false,
  afterEach: () => false,
  onStop: () => false,
  onStream: () => false,
};

const replacementNames: Record<HookKind, string> = {
  beforeCompletion: 'a CompletionRequest',
  afterCompletion: 'a CompletionResponse',
  afterTool: 'a ToolResult ({ ok: true, output } or { ok: false, error })',
  onNewMessage: 'a ChatMessage',
  beforeAll: 'nothing',
  onStart: 'nothing',
  beforeTool: 'nothing',
  afterEach: 'nothing',
  onStop: 'nothing',
  onStream: 'nothing',
};

function describe(value: unknown): string {
  if (isObject(value)) return 'an object of another shape';
  return typeof value === 'string' ? `the string ${JSON.stringify(value)}` : String(value);
}

async function guarded(kind: HookKind, run: () => unknown): Promise<unknown> {
  try {
    return await inHook(kind, run);
  } catch (error) {
    if (isAgentlogError(error) && error.code === 'alreadyRunning') {
      throw new AgentError(
        'hookFailed',
        `a ${kind} hook started a run of its own agent, which is running: a hook may ask for a stop, not start a run (${error.message})`,
        { cause: error },
      );
    }
    if (isAgentlogError(error)) throw error;
    const message = describeThrown(error);
    throw new AgentError('hookFailed', `a ${kind} hook failed: ${message}`, { cause: error });
  }
}

/** Where a replacement that has the right outline still differs from what the stream stores. */
function replacementProblem(kind: HookKind, value: unknown): string | undefined {
  try {
    if (kind === 'afterTool') {
      const result = value as { ok: boolean; output?: unknown };
      return result.ok ? toolOutputProblem(result.output) : undefined;
    }
    if (kind !== 'onNewMessage') return undefined;
    const message = value as {
      role: string;
      output?: unknown;
      text?: unknown;
      toolCalls?: unknown;
    };
    if (message.role === 'tool') return toolOutputProblem(message.output);
    if (message.role !== 'assistant') return undefined;
    if (message.text !== undefined && typeof message.text !== 'string')
      return 'text: expected a string';
    return arrayOf(toolCallCheck)(message.toolCalls, 'toolCalls');
  } catch {
    return 'the value is cyclic or too deeply nested';
  }
}
