import type { Command } from 'commander';
import type { CliIo } from './cliIo.js';
import type { ParsedArgs } from './parsedArgs.js';

/**
 * One `agentlog` command: its name, a one-line summary, its arguments and options (declared once,
 * on commander's command: the parser and `--help` both come from them) and how to run it.
 */
export interface CliCommand {
  readonly name: string;
  /** One line for `agentlog --help`. */
  readonly summary: string;
  /** Declares the command's arguments, options, description and help notes on `command`. */
  define(command: Command): void;
  /** Runs the command on its parsed arguments; resolves to the exit code. */
  run(args: ParsedArgs, io: CliIo): Promise<number>;
}
