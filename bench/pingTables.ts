import { formatCount, formatKb, formatRatio, formatSeconds } from './formatFigures.js';
import type { ContenderFigures, PingFigure } from './pingFigures.js';
import type { ResultTable } from './resultTable.js';
import type { Phase } from './sideBySide.js';

/** What each phase's figures are, as table titles and notes say it. */
export const phaseTitles: Readonly<Record<Phase, string>> = {
  cold: 'cold: the first run in a fresh process',
  warm: 'warm: after one run of the same scenario in the same process, not counted',
};

/**
 * One table per step count for one phase: per-step median, min–max, ratio to the baseline, RSS;
 * growth last.
 */
export function pingTables(
  figures: readonly ContenderFigures[],
  steps: readonly number[],
  baseline: string | undefined,
  phase: Phase,
): ResultTable[] {
  const most = Math.max(...steps);
  return steps.map((count) => {
    const skipped = figures.flatMap((contender) => {
      const why = contender.bySteps.get(count)?.skipped;
      return why === undefined ? [] : [`${contender.name} skipped: ${why}.`];
    });
    return {
      title: `Ping scenario, ${formatCount(count)} steps, ${phaseTitles[phase]} (one tool call per step, then a text answer)`,
      header: [
        'framework',
        'runs',
        'per step (median)',
        'min–max',
        baseline === undefined ? 'ratio' : `÷ ${baseline}`,
        'peak RSS',
        ...(count === most
          ? [`growth ${formatCount(most)}/${formatCount(Math.min(...steps))}`]
          : []),
      ],
      rows: figures.map((contender) => {
        const figure = contender.bySteps.get(count);
        return [
          contender.name,
          runsCell(figure),
          figure?.perStep === undefined
            ? missingCell(figure, count)
            : formatSeconds(figure.perStep.median),
          figure?.perStep === undefined
            ? ''
            : `${formatSeconds(figure.perStep.min)}–${formatSeconds(figure.perStep.max)}`,
          figure?.ratio === undefined ? '' : formatRatio(figure.ratio),
          figure?.rssKb === undefined ? '' : formatKb(figure.rssKb),
          ...(count === most
            ? [contender.growth === undefined ? '' : formatRatio(contender.growth)]
            : []),
        ];
      }),
      notes: [
        (phase === 'cold'
          ? `Each run is a fresh \`node\` process, timed on its first run of the scenario (JIT cold); per step = that run's time ÷ ${formatCount(count)}.`
          : `Each run is a fresh \`node\` process that first ran the same scenario once (fresh model, tools and store or stream; that run is the cold figure, not counted here), then timed a second run; per step = the second run's time ÷ ${formatCount(count)}. Peak RSS covers both runs.`) +
          (baseline === undefined
            ? ''
            : ` Ratios are taken within each round (same moment, same machine load), then their median.`),
        ...skipped,
      ],
    };
  });
}

function runsCell(figure: PingFigure | undefined): string {
  if (figure === undefined) return '0';
  if (figure.skipped !== undefined) return '0 (skipped)';
  const notes = [
    ...(figure.budgetSpent ? ['time budget'] : []),
    ...(figure.timedOutAfter === undefined ? [] : ['timed out']),
    ...(figure.warmTimedOut ? ['warm run timed out'] : []),
  ];
  return notes.length === 0 ? String(figure.runs) : `${figure.runs} (${notes.join(', ')})`;
}

function missingCell(figure: PingFigure | undefined, steps: number): string {
  if (figure?.skipped !== undefined) return 'skipped';
  if (figure?.timedOutAfter === undefined) return 'n/a';
  return `> ${formatSeconds(figure.timedOutAfter / steps)} (child > ${figure.timedOutAfter} s)`;
}
