import { Command } from 'commander';
import type { CliCommand } from './cliCommand.js';
import type { CliIo } from './cliIo.js';
import { parsedArgsOf } from './parsedArgs.js';
import { usageError } from './usageError.js';

/** Help is wrapped at this width whatever the terminal, so it reads the same everywhere. */
const helpWidth = 100;

/**
 * The `agentlog` program on commander, writing only to `io` and never calling `process.exit`:
 * commander's errors surface as thrown errors (see {@link usageError}). `version` answers
 * `--version`. Add the commands with {@link addCommands}.
 */
export function createProgram(io: CliIo, version: string): Command {
  const program = new Command('agentlog');
  program
    .usage('<command> [options]')
    .description('Works on agentlog event streams from outside the agent: inspect, replay, decide.')
    .configureOutput({
      writeOut: (text) => io.stdout(text),
      writeErr: (text) => io.stderr(text),
      // runCli prints every error as one line, prefixed with the command.
      outputError: () => undefined,
      getOutHelpWidth: () => helpWidth,
      getErrHelpWidth: () => helpWidth,
      getOutHasColors: () => false,
      getErrHasColors: () => false,
    })
    .configureHelp({ subcommandTerm: (command) => command.name() })
    .helpOption('-h, --help', 'show this help')
    .helpCommand('help [command]', 'show the help of a command')
    .version(version, '-V, --version', 'print the version')
    .addHelpText(
      'after',
      '\nEvery command takes --store <where>: a SQLite file (default .agentlog/agentlog.db),\n' +
        'a postgres:// or kurrentdb:// URL, or a .jsonl file. Run agentlog <command> --help (or\n' +
        'agentlog help <command>) for its options.',
    )
    .exitOverride((error) => {
      throw usageError(error, program);
    });
  return program;
}

/**
 * Adds `commands` to `program`; when one runs, `done` receives its exit code. Each command's
 * arguments and options are declared by the command itself ({@link CliCommand.define}).
 */
export function addCommands(
  program: Command,
  commands: readonly CliCommand[],
  io: CliIo,
  done: (exitCode: number) => void,
): void {
  for (const cli of commands) {
    const command = program.command(cli.name).summary(cli.summary);
    command.exitOverride((error) => {
      throw usageError(error, command);
    });
    cli.define(command);
    command.action(async () => {
      done(await cli.run(parsedArgsOf(command), io));
    });
  }
}
