import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { WorkerAgents } from '@agentlog/core';
import { CliError } from './cliError.js';
import { importModule } from './loadAgentModule.js';

/**
 * Imports the `--agents` module of `agentlog worker` (resolved from `cwd`): it must export
 * `agents`, a builder function per registered agent name (SPEC WRK-1). A missing file, a failing
 * import, or a missing or malformed `agents` is a `CliError`.
 */
export async function loadAgentsModule(given: string, cwd: string): Promise<WorkerAgents> {
  const path = resolve(cwd, given);
  if (!existsSync(path)) throw new CliError(`no --agents module at ${given}`);
  let loaded: unknown;
  try {
    loaded = await importModule(pathToFileURL(path).href);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new CliError(`cannot load the --agents module ${given}: ${message.split('\n')[0]}`);
  }
  const { agents } = loaded as { agents?: unknown };
  const valid =
    typeof agents === 'object' &&
    agents !== null &&
    Object.keys(agents).length > 0 &&
    Object.values(agents).every((make) => typeof make === 'function');
  if (!valid) {
    throw new CliError(
      `the --agents module ${given} does not export agents: { [name]: (streamId) => AgentBuilder }`,
    );
  }
  return agents as WorkerAgents;
}
