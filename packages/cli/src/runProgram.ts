import { CommanderError } from 'commander';
import { CliError } from './cliError.js';
import type { CliIo } from './cliIo.js';
import { commands } from './commands.js';
import { addCommands, createProgram } from './createProgram.js';
import { isAnswered } from './usageError.js';
import { visibleLine } from '@agentlog/core/read-models';

/**
 * Parses `argv` with the `agentlog` program on commander and runs the command it names; see
 * `runCli` for the exit codes. Every error, commander's included, is one line on `io.stderr`.
 */
export async function runProgram(argv: string[], io: CliIo, version: string): Promise<number> {
  const program = createProgram(io, version);
  let running: string | undefined;
  let exitCode = 0;
  try {
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
  // Messages name streams, calls and texts from the store: shown with visible escapes (REV-1).
  return visibleLine(message.split('\n')[0] ?? '');
}
