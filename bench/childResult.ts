/**
 * What every bench child prints as its last stdout line (JSON): the measured seconds, its peak
 * resident set size in kB (`process.resourceUsage().maxRSS`) and any extra figures.
 */
export interface ChildResult {
  readonly seconds: number;
  readonly maxRssKb: number;
  /** Per-cycle seconds, for the approval scenario. */
  readonly cycles?: readonly number[];
  /** Free-form figures a child adds (named seconds). */
  readonly figures?: Readonly<Record<string, number>>;
  /**
   * Set by the ping children, which print two result lines: `cold` for the first run in the fresh
   * process, then `warm` for a second run of the same scenario right after it.
   */
  readonly phase?: 'cold' | 'warm';
}

/** Prints `result` as the child's result line, with the peak RSS filled in. */
export function reportChildResult(result: Omit<ChildResult, 'maxRssKb'>): void {
  const line: ChildResult = { ...result, maxRssKb: process.resourceUsage().maxRSS };
  process.stdout.write(`${JSON.stringify(line)}\n`);
}

/** Tells the parent that preparation is over and the timed part starts (its time budget starts). */
export function reportReady(): void {
  process.stdout.write('{"ready":true}\n');
}
