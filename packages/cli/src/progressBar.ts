import type { CliIo } from './cliIo.js';

/** A progress bar on standard error; every method does nothing when it is not a terminal. */
export interface ProgressBar {
  /** Shows `done` of the total, as `\r[#####-----] 5/13`. */
  show(done: number): void;
  /** Blanks the bar's line, before a result line is printed or at the end. */
  clear(): void;
}

const cells = 20;

/** A {@link ProgressBar} for `total` steps, drawn only when `io.isTTY`. */
export function createProgressBar(io: Pick<CliIo, 'isTTY' | 'stderr'>, total: number): ProgressBar {
  let drawn = 0;
  return {
    show(done) {
      if (!io.isTTY) return;
      const filled = total === 0 ? cells : Math.round((done / total) * cells);
      const bar = `[${'#'.repeat(filled)}${'-'.repeat(cells - filled)}] ${done}/${total}`;
      drawn = bar.length;
      io.stderr(`\r${bar}`);
    },
    clear() {
      if (!io.isTTY || drawn === 0) return;
      io.stderr(`\r${' '.repeat(drawn)}\r`);
      drawn = 0;
    },
  };
}
