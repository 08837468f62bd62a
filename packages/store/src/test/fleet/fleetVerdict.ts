// The verdict of the fleet's chaos test: its pass criteria and the table it prints.
import type { FleetFigures, FleetReport } from './fleetLogs.js';

/** The pass criteria: every failure, named (an empty list is a pass). */
export function failuresOf(report: FleetReport): string[] {
  const { figures, details } = report;
  const failures: string[] = [];
  const add = (count: number, what: string, lines: readonly string[]): void => {
    if (count > 0) failures.push(`${count} ${what}: ${lines.slice(0, 10).join('; ')}`);
  };
  add(figures.runs - figures.finished, 'runs did not finish', details.unfinished);
  add(figures.liveTakeovers, 'takeovers of a live owner', details.liveTakeovers);
  add(
    figures.pausedAppendsAfterClaim,
    'appends by the paused worker after another worker claimed its run',
    details.pausedAppends,
  );
  add(figures.doubleEffects, 'double effects', details.doubleEffects);
  add(figures.missingCharges, 'missing charges', details.missingCharges);
  add(figures.lostEvents, 'lost events', details.lostEvents);
  add(figures.unfoldable, 'streams that do not fold', details.unfoldable);
  return failures;
}

/** One row of the markdown table of the figures. */
export const tableHeader = [
  '| store | runs | finished | kills | takeovers | live takeovers | paused appends after claim | ambiguous asks | double effects | TOOL-7 re-runs | lost events | seconds |',
  '| --- | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: | --: |',
];

export function tableRow(store: string, figures: FleetFigures, seconds: number): string {
  const cells = [
    store,
    figures.runs,
    figures.finished,
    figures.kills,
    figures.takeovers,
    figures.liveTakeovers,
    figures.pausedAppendsAfterClaim,
    figures.ambiguousAsks,
    figures.doubleEffects,
    figures.toolReruns,
    figures.lostEvents,
    Math.round(seconds),
  ];
  return `| ${cells.join(' | ')} |`;
}
