import type { BenchSettings } from './benchSettings.js';
import { runChild } from './runChild.js';
import { summarise, type Summary } from './summarise.js';

/** The fold of one stream size: its real event count and the fold times. */
export interface FoldMeasurement {
  readonly events: number;
  readonly seconds: Summary;
  readonly rssKb: number;
}

/** Every measured fold size, the figure for a million events, and why larger sizes were skipped. */
export interface FoldFigures {
  readonly measured: readonly FoldMeasurement[];
  /** Seconds to fold 1,000,000 events: measured, or extrapolated from the two largest sizes. */
  readonly million?: { readonly seconds: number; readonly extrapolated: string | undefined };
  readonly skipped?: string;
}

const million = 1_000_000;
// A size whose median fold takes longer than this is the last one tried.
const slowSeconds = 5;

/**
 * Times `foldEvents` on synthesised valid streams of growing size, each run in a fresh child. It
 * stops before a size its growth so far predicts would exceed the run budget, or after a size
 * that took more than 5 s, and then extrapolates the time for a million events.
 */
export async function foldFigures(
  childScript: string,
  settings: BenchSettings,
  progress: (line: string) => void,
): Promise<FoldFigures> {
  const measured: FoldMeasurement[] = [];
  const budgetSeconds = Math.min(settings.runTimeoutSeconds, 30);
  let skipped: string | undefined;
  for (const size of settings.foldSizes) {
    const last = measured.at(-1);
    if (last !== undefined && last.seconds.median > slowSeconds) {
      skipped = `${size.toLocaleString('en-US')} and up skipped: ${last.events.toLocaleString('en-US')} events took more than ${slowSeconds} s`;
      break;
    }
    const predicted = predict(measured, size);
    if (predicted !== undefined && predicted.seconds > budgetSeconds) {
      skipped = `${size.toLocaleString('en-US')} and up skipped: predicted ${predicted.seconds.toPrecision(3)} s (growth exponent ${predicted.exponent.toFixed(2)})`;
      break;
    }
    const runs: { seconds: number; rssKb: number; events: number }[] = [];
    for (let run = 0; run < settings.figureRuns; run += 1) {
      const outcome = await runChild(childScript, ['fold', String(size)], {
        budgetSeconds,
        prepareSeconds: 600,
        nodeFlags: ['--max-old-space-size=12288'],
      });
      if (outcome.kind === 'timedOut') {
        skipped = `${size.toLocaleString('en-US')} timed out after ${budgetSeconds} s`;
        break;
      }
      runs.push({
        seconds: outcome.result.seconds,
        rssKb: outcome.result.maxRssKb,
        events: outcome.result.figures?.['events'] ?? size,
      });
    }
    if (skipped !== undefined || runs.length === 0) break;
    measured.push({
      events: runs[0]?.events ?? size,
      seconds: summarise(runs.map((run) => run.seconds)),
      rssKb: summarise(runs.map((run) => run.rssKb)).median,
    });
    progress(`  fold of ${size.toLocaleString('en-US')} events done`);
  }
  return {
    measured,
    ...millionFigure(measured),
    ...(skipped === undefined ? {} : { skipped }),
  };
}

/** The growth exponent of the two largest sizes, and the time it predicts for `size`. */
function predict(
  measured: readonly FoldMeasurement[],
  size: number,
): { seconds: number; exponent: number } | undefined {
  const [before, last] = measured.slice(-2);
  if (last === undefined) return undefined;
  const exponent =
    before === undefined
      ? 1
      : Math.min(
          2.5,
          Math.max(
            1,
            Math.log(last.seconds.median / before.seconds.median) /
              Math.log(last.events / before.events),
          ),
        );
  return { seconds: last.seconds.median * (size / last.events) ** exponent, exponent };
}

function millionFigure(measured: readonly FoldMeasurement[]): Pick<FoldFigures, 'million'> {
  const reached = measured.find((measurement) => measurement.events >= million * 0.99);
  if (reached !== undefined)
    return { million: { seconds: reached.seconds.median, extrapolated: undefined } };
  const predicted = predict(measured, million);
  const last = measured.at(-1);
  if (predicted === undefined || last === undefined) return {};
  const basis =
    measured.length > 1 ? `growth exponent ${predicted.exponent.toFixed(2)}` : 'assumed linear';
  return {
    million: {
      seconds: predicted.seconds,
      extrapolated: `extrapolated from ${last.events.toLocaleString('en-US')} events, ${basis}`,
    },
  };
}
