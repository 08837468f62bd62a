import { spawn } from 'node:child_process';
import type { ChildResult } from './childResult.js';

/** How a child run ended: its result, or a timeout once its budget ran out. */
export type ChildOutcome =
  | {
      readonly kind: 'done';
      /** The last result line. */
      readonly result: ChildResult;
      /** Every result line, in order (the ping children print a cold and a warm one). */
      readonly results: readonly ChildResult[];
    }
  | {
      readonly kind: 'timedOut';
      readonly afterSeconds: number;
      /** The result lines printed before the child was killed. */
      readonly results: readonly ChildResult[];
    };

/** Options of {@link runChild}. */
export interface RunChildOptions {
  /** Seconds the child may run (from its `ready` line if it prints one, else from the spawn). */
  readonly budgetSeconds: number;
  /**
   * Set for a child that prints a `ready` line after preparing: the seconds it may prepare; its
   * budget starts at that line. Unset: the budget starts at the spawn.
   */
  readonly prepareSeconds?: number;
  /** Extra node flags, such as `--max-old-space-size=8192`. */
  readonly nodeFlags?: readonly string[];
  readonly cwd?: string;
}

/**
 * Runs `node script ...args` in a fresh process and parses the JSON result line it prints last.
 * Kills the child (only that one, by its pid) when its budget runs out; rejects when it crashes,
 * quoting its stderr, so a broken scenario fails the bench loudly.
 */
export function runChild(
  script: string,
  args: readonly string[],
  options: RunChildOptions,
): Promise<ChildOutcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...(options.nodeFlags ?? []), script, ...args], {
      cwd: options.cwd ?? process.cwd(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    let armedAt = performance.now();
    const arm = (seconds: number) =>
      setTimeout(() => {
        timedOut = true;
        child.kill('SIGKILL');
      }, seconds * 1_000);
    let ready = options.prepareSeconds === undefined;
    let timer = arm(options.prepareSeconds ?? options.budgetSeconds);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      if (!ready && stdout.includes('{"ready":true}')) {
        ready = true;
        clearTimeout(timer);
        armedAt = performance.now();
        timer = arm(options.budgetSeconds);
      }
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const results = resultLines(stdout);
      if (timedOut) {
        resolve({
          kind: 'timedOut',
          afterSeconds: (performance.now() - armedAt) / 1_000,
          results,
        });
        return;
      }
      const last = stdout.trim().split('\n').at(-1) ?? '';
      if (code !== 0 || !last.startsWith('{')) {
        const why = signal === null ? `exit code ${code}` : `signal ${signal}`;
        reject(new Error(`${script} ${args.join(' ')} failed (${why}):\n${stderr.trim()}`));
        return;
      }
      resolve({ kind: 'done', result: JSON.parse(last) as ChildResult, results });
    });
  });
}

/** The complete JSON result lines of a child's stdout (lines with `seconds`; not `ready`). */
function resultLines(stdout: string): ChildResult[] {
  return stdout.split('\n').flatMap((line) => {
    if (!line.startsWith('{') || !line.endsWith('}')) return [];
    try {
      const parsed = JSON.parse(line) as Partial<ChildResult>;
      return typeof parsed.seconds === 'number' ? [parsed as ChildResult] : [];
    } catch {
      return [];
    }
  });
}
