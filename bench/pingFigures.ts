import type { PingRuns, SideBySideResults } from './sideBySide.js';
import { summarise, type Summary } from './summarise.js';

/** What the side-by-side says about one contender at one step count. */
export interface PingFigure {
  readonly runs: number;
  /** Seconds per step (total ÷ steps): median, min, max over the runs. */
  readonly perStep?: Summary;
  /** Median peak RSS in kB. */
  readonly rssKb?: number;
  /** The median over rounds of (this run ÷ the baseline's run in the same round). */
  readonly ratio?: number;
  readonly timedOutAfter?: number;
  readonly budgetSpent: boolean;
  /** A child's warm run timed out, so later rounds skipped it (set on the cold figures). */
  readonly warmTimedOut: boolean;
  /** Why it did not run at all. */
  readonly skipped?: string;
}

/** A contender's figures by step count, and its growth: per step at the most ÷ at the fewest. */
export interface ContenderFigures {
  readonly name: string;
  readonly bySteps: ReadonlyMap<number, PingFigure>;
  readonly growth?: number;
}

/** Turns raw runs into per-step medians, ratios to `baseline` within rounds, and growth. */
export function pingFigures(
  results: SideBySideResults,
  steps: readonly number[],
  baseline: string | undefined,
): ContenderFigures[] {
  return [...results].map(([name, byStep]) => {
    const bySteps = new Map<number, PingFigure>();
    for (const count of steps) {
      const entry = byStep.get(count) ?? { runs: [] };
      const base = baseline === undefined ? undefined : results.get(baseline)?.get(count);
      bySteps.set(count, figure(entry, count, base));
    }
    const fewest = bySteps.get(Math.min(...steps))?.perStep?.median;
    const most = bySteps.get(Math.max(...steps))?.perStep?.median;
    return {
      name,
      bySteps,
      ...(fewest === undefined || most === undefined ? {} : { growth: most / fewest }),
    };
  });
}

function figure(entry: PingRuns, steps: number, base: PingRuns | undefined): PingFigure {
  const ratios = entry.runs.flatMap((run) => {
    const paired = base?.runs.find((other) => other.round === run.round);
    return paired === undefined ? [] : [run.seconds / paired.seconds];
  });
  return {
    runs: entry.runs.length,
    budgetSpent: entry.budgetSpent === true,
    warmTimedOut: entry.warmTimedOut === true,
    ...(entry.skipped === undefined ? {} : { skipped: entry.skipped }),
    ...(entry.timedOutAfter === undefined ? {} : { timedOutAfter: entry.timedOutAfter }),
    ...(entry.runs.length === 0
      ? {}
      : {
          perStep: summarise(entry.runs.map((run) => run.seconds / steps)),
          rssKb: summarise(entry.runs.map((run) => run.maxRssKb)).median,
        }),
    ...(ratios.length === 0 ? {} : { ratio: summarise(ratios).median }),
  };
}
