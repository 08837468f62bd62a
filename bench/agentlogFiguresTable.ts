import type { FixtureReplayFigure } from './fixtureReplayFigure.js';
import type { FoldFigures } from './foldFigures.js';
import { formatCount, formatKb, formatSeconds } from './formatFigures.js';
import type { ResultTable } from './resultTable.js';
import type { SqliteFigures } from './sqliteFigures.js';
import type { Summary } from './summarise.js';

/** The agentlog-only figures as one table: fold sizes, the SQLite stream figures, fixture replay. */
export function agentlogFiguresTable(
  fold: FoldFigures,
  sqlite: SqliteFigures,
  fixtures: FixtureReplayFigure,
): ResultTable {
  const row = (figure: string, seconds: Summary, note = ''): string[] => [
    figure,
    String(seconds.count),
    formatSeconds(seconds.median),
    `${formatSeconds(seconds.min)}–${formatSeconds(seconds.max)}`,
    note,
  ];
  const events = formatCount(sqlite.events);
  return {
    title: 'agentlog alone (each run a fresh process)',
    header: ['figure', 'runs', 'median', 'min–max', 'note'],
    rows: [
      ...fold.measured.map((measurement) =>
        row(
          `foldEvents, ${formatCount(measurement.events)} parsed events`,
          measurement.seconds,
          `peak RSS ${formatKb(measurement.rssKb)}`,
        ),
      ),
      ...(fold.million === undefined
        ? []
        : [
            [
              'foldEvents, 1,000,000 parsed events',
              fold.million.extrapolated === undefined ? '' : '–',
              formatSeconds(fold.million.seconds),
              '',
              fold.million.extrapolated ?? 'measured',
            ],
          ]),
      row(
        `build an Agent on a ${events}-event SQLite stream`,
        sqlite.build,
        'read + decode + fold',
      ),
      row(`resume: build + one more ping step on it`, sqlite.resume),
      row(`forkStream at the middle of it`, sqlite.fork),
      row(
        `replay the ${fixtures.sessions} fixture sessions`,
        fixtures.seconds,
        '`agentlog replay fixtures/sessions`, wall clock incl. Node start',
      ),
    ],
    notes: [
      'The streams are synthesised from a real 300-step ping run (fixed clock and ids): its second step repeated with fresh tool-call ids, event ids and revisions.',
      ...(fold.skipped === undefined ? [] : [`Fold: ${fold.skipped}.`]),
    ],
  };
}
