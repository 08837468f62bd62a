import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AgentBuilder, StreamEvent } from '@agentlog/core';
import { CliError } from './cliError.js';

/**
 * The contract of a `--agent` module: `agentFor` builds the agent a session was recorded with
 * (tools, system prompt, hooks, limits; no model, store or stream id), or returns `undefined`
 * when it does not know the session; `streamIdFor` may name the recorded stream id.
 */
export interface AgentModule {
  agentFor(file: string, events: StreamEvent[]): AgentBuilder | undefined;
  streamIdFor?(file: string): string | undefined;
}

/**
 * Imports the `--agent` module `given` (resolved from `cwd`) with a dynamic `import()` of its
 * file URL; a TypeScript module Node cannot load by itself is loaded through `tsx` when it is
 * installed. A missing file, a failing import or a missing `agentFor` is a `CliError`.
 */
export async function loadAgentModule(given: string, cwd: string): Promise<AgentModule> {
  const path = resolve(cwd, given);
  if (!existsSync(path)) throw new CliError(`no --agent module at ${given}`);
  const url = pathToFileURL(path).href;
  let loaded: unknown;
  try {
    loaded = await importModule(url);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new CliError(`cannot load the --agent module ${given}: ${message.split('\n')[0]}`);
  }
  const module = loaded as Partial<Record<keyof AgentModule, unknown>>;
  if (typeof module.agentFor !== 'function') {
    throw new CliError(
      `the --agent module ${given} does not export agentFor(file, events): AgentBuilder | undefined`,
    );
  }
  if (module.streamIdFor !== undefined && typeof module.streamIdFor !== 'function') {
    throw new CliError(`the --agent module ${given} exports a streamIdFor that is not a function`);
  }
  return module as AgentModule;
}

/** Imports a module by file URL; a TypeScript one Node cannot load goes through `tsx` when installed. */
export async function importModule(url: string): Promise<unknown> {
  try {
    return (await import(url)) as unknown;
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ERR_UNKNOWN_FILE_EXTENSION') throw error;
    return importWithTsx(url);
  }
}

/** Loads a TypeScript module through tsx's scoped `tsImport`, when tsx can be found. */
async function importWithTsx(url: string): Promise<unknown> {
  const specifier = 'tsx/esm/api';
  let tsx: { tsImport: (specifier: string, parentURL: string) => Promise<unknown> };
  try {
    tsx = (await import(specifier)) as typeof tsx;
  } catch {
    throw new Error(
      'it is TypeScript and tsx is not installed: compile it to JavaScript, or install tsx',
    );
  }
  return tsx.tsImport(url, import.meta.url);
}
