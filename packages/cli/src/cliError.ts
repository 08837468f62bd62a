/**
 * A problem with what the user asked for (bad arguments, a missing file or stream, an invalid
 * stream): `runCli` prints its message as one line and exits with `exitCode` (2 by default).
 */
export class CliError extends Error {
  readonly exitCode: number;

  constructor(message: string, exitCode = 2) {
    super(message);
    this.name = 'CliError';
    this.exitCode = exitCode;
  }
}
