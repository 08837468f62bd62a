import { formatCount, formatKb, formatRatio, formatSeconds } from './formatFigures.js';
import type { ContenderFigures, PingFigure } from './pingFigures.js';
import type { ResultTable } from './resultTable.js';

/** One table per step count: per-step median, min–max, ratio to the baseline, RSS; growth last. */
export function pingTables(
  figures: readonly ContenderFigures[],
  steps: readonly number[],
  baseline: string | undefined,
): ResultTable[] {
  const most = Math.max(...steps);
  return steps.map((count) => ({
    title: `Ping scenario, ${formatCount(count)} steps (one tool call per step, then a text answer)`,
    header: [
      'framework',
      'runs',
      'per step (median)',
      'min–max',
      baseline === undefined ? 'ratio' : `÷ ${baseline}`,
      'peak RSS',
      ...(count === most ? [`growth ${formatCount(most)}/${formatCount(Math.min(...steps))}`] : []),
    ],
    rows: figures.map((contender) => {
      const figure = contender.bySteps.get(count);
      return [
        contender.name,
        runsCell(figure),
        figure?.perStep === undefined
          ? timedOutCell(figure, count)
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
      `Each run is a fresh \`node\` process; per step = the run's total time ÷ ${formatCount(count)}.` +
        (baseline === undefined
          ? ''
          : ` Ratios are taken within each round (same moment, same machine load), then their median.`),
    ],
  }));
}

function runsCell(figure: PingFigure | undefined): string {
  if (figure === undefined) return '0';
  const notes = [
    ...(figure.budgetSpent ? ['time budget'] : []),
    ...(figure.timedOutAfter === undefined ? [] : ['timed out']),
  ];
  return notes.length === 0 ? String(figure.runs) : `${figure.runs} (${notes.join(', ')})`;
}

function timedOutCell(figure: PingFigure | undefined, steps: number): string {
  if (figure?.timedOutAfter === undefined) return 'n/a';
  return `> ${formatSeconds(figure.timedOutAfter / steps)} (run > ${figure.timedOutAfter} s)`;
}
