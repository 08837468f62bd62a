import type { CliIo } from './cliIo.js';

/** One `agentlog` command: its name, a one-line summary, its `--help` text and how to run it. */
export interface CliCommand {
  readonly name: string;
  /** One line for `agentlog --help`. */
  readonly summary: string;
  /** The whole `agentlog <name> --help` text, usage first. */
  readonly help: string;
  /** Runs the command on its arguments (the command name removed); resolves to the exit code. */
  run(args: string[], io: CliIo): Promise<number>;
}
