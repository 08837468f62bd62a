/**
 * What the `agentlog` command reads from and writes to: its output streams, environment, working
 * directory and whether stdout is a terminal. `main.ts` passes the process's; tests pass their own.
 */
export interface CliIo {
  /** Writes text to standard output as is; callers add the newlines. */
  readonly stdout: (text: string) => void;
  /** Writes text to standard error as is; callers add the newlines. */
  readonly stderr: (text: string) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Relative paths (store, files, `--agent`) are resolved from here. */
  readonly cwd: string;
  /** Colours and the replay progress bar are only shown on a terminal. */
  readonly isTTY: boolean;
  /**
   * Aborts when the command should shut down (`agentlog worker`, SPEC WRK-5). Absent, the command
   * listens for SIGTERM and SIGINT itself.
   */
  readonly shutdown?: AbortSignal;
  /**
   * Resolves once standard output can take more (backpressure): a command that prints a lot in
   * pages (`agentlog inspect`) awaits it after each page. Absent, output is never waited for.
   */
  readonly drain?: () => Promise<void>;
}
