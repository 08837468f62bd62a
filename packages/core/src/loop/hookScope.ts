import { AsyncLocalStorage } from 'node:async_hooks';
import type { HookKind } from '../events/agentEvent.js';

const running = new AsyncLocalStorage<HookKind>();

/** Runs a hook so that a stop it asks for is recorded with its kind (`AgentStopped.hook`). */
export function inHook<T>(kind: HookKind, run: () => T): T {
  return running.run(kind, run);
}

/** The kind of the hook whose code is running now, if any: the caller's own code otherwise. */
export function currentHook(): HookKind | undefined {
  return running.getStore();
}
