import type { Command, CommanderError } from 'commander';
import { CliError } from './cliError.js';

/** The commander outcomes that are not failures: help or the version was printed (exit 0). */
const answered = new Set(['commander.help', 'commander.helpDisplayed', 'commander.version']);

/** True when commander stopped because it printed help or the version, which exits 0. */
export function isAnswered(error: CommanderError): boolean {
  return answered.has(error.code);
}

/**
 * commander's verdict on the arguments of `command` (the program itself for a missing or unknown
 * command) as a one-line {@link CliError} (exit 2) ending with where to look: `see agentlog
 * <command> --help`, or `run agentlog --help` at the top level. Help and version are rethrown.
 */
export function usageError(error: CommanderError, command: Command): Error {
  if (isAnswered(error)) return error;
  const top = command.parent === null;
  const hint = top ? 'run agentlog --help' : `see agentlog ${command.name()} --help`;
  return new CliError(`${problem(error, command)}; ${hint}`);
}

function problem(error: CommanderError, command: Command): string {
  const quoted = /'([^']+)'/.exec(error.message)?.[1] ?? '?';
  switch (error.code) {
    case 'commander.missingArgument':
      return `missing <${quoted}>`;
    case 'commander.excessArguments':
      return `unexpected argument '${command.args[command.registeredArguments.length] ?? '?'}'`;
    default:
      // "error: unknown option '--stor'\n(Did you mean --store?)" becomes one line.
      return error.message
        .replace(/^error: /, '')
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line !== '')
        .join(' ')
        .replace(/\.$/, '');
  }
}
