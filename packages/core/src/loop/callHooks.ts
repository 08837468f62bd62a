import type { HookKind, Hooks } from '../agent/hooks.js';
import { AgentError } from '../errors/agentError.js';
import { isAgentlogError } from '../errors/agentlogError.js';
import type { RunScope } from './runScope.js';

type Rest<K extends HookKind> = Parameters<Hooks[K]> extends [unknown, ...infer R] ? R : never;

/** Runs every hook of one kind in order; a hook's failure becomes `AgentError('hookFailed')`. */
export async function callHooks<K extends HookKind>(
  scope: RunScope,
  kind: K,
  ...args: Rest<K>
): Promise<void> {
  for (const hook of scope.config.hooks[kind]) {
    await guarded(kind, () => (hook as (...all: unknown[]) => unknown)(scope.agent, ...args));
  }
}

/**
 * Runs hooks that may replace a value: each gets what the previous one returned (or was given,
 * when it returned nothing).
 */
export async function transformWithHooks<K extends HookKind, V>(
  scope: RunScope,
  kind: K,
  value: V,
  before: readonly unknown[] = [],
): Promise<V> {
  let current = value;
  for (const hook of scope.config.hooks[kind]) {
    const replaced = await guarded(kind, () =>
      (hook as (...all: unknown[]) => unknown)(scope.agent, ...before, current),
    );
    if (replaced !== undefined) current = replaced as V;
  }
  return current;
}

async function guarded(kind: HookKind, run: () => unknown): Promise<unknown> {
  try {
    return await run();
  } catch (error) {
    if (isAgentlogError(error)) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new AgentError('hookFailed', `a ${kind} hook failed: ${message}`, { cause: error });
  }
}
