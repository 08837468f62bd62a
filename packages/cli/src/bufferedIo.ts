import type { CliIo } from './cliIo.js';

/** A {@link CliIo} that collects what the command writes, plus accessors for the collected text. */
export interface BufferedIo {
  readonly io: CliIo;
  /** Everything written to standard output so far. */
  stdout(): string;
  /** Everything written to standard error so far. */
  stderr(): string;
}

/**
 * An in-memory {@link CliIo} for running `runCli` inside a program or a test: not a terminal, an
 * empty environment and the process's working directory unless `overrides` say otherwise.
 */
export function bufferedIo(overrides: Partial<Omit<CliIo, 'stdout' | 'stderr'>> = {}): BufferedIo {
  let out = '';
  let err = '';
  return {
    io: {
      stdout: (text) => {
        out += text;
      },
      stderr: (text) => {
        err += text;
      },
      env: overrides.env ?? {},
      cwd: overrides.cwd ?? process.cwd(),
      isTTY: overrides.isTTY ?? false,
      ...(overrides.shutdown === undefined ? {} : { shutdown: overrides.shutdown }),
    },
    stdout: () => out,
    stderr: () => err,
  };
}
