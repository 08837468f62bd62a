import { createRequire } from 'node:module';
import type { CliIo } from './cliIo.js';

export type { CliIo } from './cliIo.js';

/**
 * Runs the `agentlog` command line `argv` (without `node` and the script) against `io` and
 * resolves to the exit code: 0 on success (and for `--help`, `--version`), 1 when `replay` found
 * a divergence, 2 for bad input (an unknown command or option, a missing or extra argument, …).
 * Errors are printed as one line on `io.stderr`, never as a stack trace.
 */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  // `agentlog --version` alone is answered before commander, the commands, @agentlog/core or a
  // store load, to stay as fast as node starting. commander declares the same option (for the
  // help, and anywhere else on the line), printing the same version().
  if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
    io.stdout(`${version()}\n`);
    return 0;
  }
  const { runProgram } = await import('./runProgram.js');
  return runProgram(argv, io, version());
}

function version(): string {
  // src/cli and dist/cli are both two folders below the package's package.json.
  const pkg = createRequire(import.meta.url)('../package.json') as { version?: string };
  return pkg.version ?? 'unknown';
}
