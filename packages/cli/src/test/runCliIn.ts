import { bufferedIo } from '../bufferedIo.js';
import type { CliIo } from '../cliIo.js';
import { runCli } from '../runCli.js';

/** What one `agentlog` command did: its exit code and everything it wrote. */
export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs `agentlog <args>` in memory, with `io` (cwd, env, isTTY) as {@link bufferedIo} takes it. */
export async function runCliIn(
  args: string[],
  io: Partial<Omit<CliIo, 'stdout' | 'stderr'>> = {},
): Promise<CliRun> {
  const out = bufferedIo(io);
  const code = await runCli(args, out.io);
  return { code, stdout: out.stdout(), stderr: out.stderr() };
}
