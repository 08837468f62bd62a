import { createRequire } from 'node:module';
import { CommanderError } from 'commander';
import { CliError } from './cliError.js';
import type { CliIo } from './cliIo.js';
import { addCommands, createProgram } from './createProgram.js';
import { isAnswered } from './usageError.js';

export type { CliIo } from './cliIo.js';

/**
 * Runs the `agentlog` command line `argv` (without `node` and the script) against `io` and
 * resolves to the exit code: 0 on success (and for `--help`, `--version`), 1 when `replay` found
 * a divergence, 2 for bad input (an unknown command or option, a missing or extra argument, …).
 * Errors are printed as one line on `io.stderr`, never as a stack trace.
 */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const program = createProgram(io, version());
  let running: string | undefined;
  let exitCode = 0;
  try {
    // Answered before any command module loads: --version needs neither @agentlog/core nor a store.
    if (argv[0] !== '--version' && argv[0] !== '-V') {
      const { commands } = await import('./commands.js');
      addCommands(program, commands, io, (code) => {
        exitCode = code;
      });
      if (argv.length === 0) {
        io.stderr(program.helpInformation());
        return 2;
      }
      // commander answers `help <unknown>` with the overview on stderr; say what is wrong instead.
      const topic = argv[0] === 'help' ? argv[1] : undefined;
      if (topic !== undefined && !commands.some(({ name }) => name === topic))
        throw new CliError(`unknown command '${topic}'; run agentlog --help`);
      program.hook('preSubcommand', (_, command) => {
        running = command.name();
      });
    }
    await program.parseAsync(argv, { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError && isAnswered(error)) return 0;
    io.stderr(`${running === undefined ? 'agentlog' : `agentlog ${running}`}: ${oneLine(error)}\n`);
    return error instanceof CliError ? error.exitCode : 2;
  }
}

function oneLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0] ?? '';
}

function version(): string {
  // src/cli and dist/cli are both two folders below the package's package.json.
  const pkg = createRequire(import.meta.url)('../../package.json') as { version?: string };
  return pkg.version ?? 'unknown';
}
