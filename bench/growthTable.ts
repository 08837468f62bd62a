import type { GrowthCommand } from './measureCliGrowth.js';
import type { GrowthFigure } from './growthFigures.js';
import { formatCount, formatKb, formatRatio, formatSeconds } from './formatFigures.js';
import type { ResultTable } from './resultTable.js';
import { ratioTarget, timeTarget, type Target } from './targets.js';

const what: Record<GrowthCommand, string> = {
  replay: 'replayStream of a recorded ping run',
  report: 'agentlog report --html',
  inspect: 'agentlog inspect',
  fork: 'agentlog fork --at the middle',
  list: 'agentlog list (one stream: its events)',
  pending: 'agentlog pending (one stream: its events)',
};

/** The growth table: each command at both sizes, with time and peak RSS ratios. */
export function growthTable(figures: readonly GrowthFigure[], runs: number): ResultTable {
  return {
    title: `Growth: time at ~10× the events ÷ time at 1×, ${runs === 1 ? 'one run per size' : `the median of ${runs} runs per size`}`,
    header: [
      'command',
      'events',
      'seconds',
      'peak RSS',
      'events ×10',
      'seconds',
      'peak RSS',
      'time ×',
      'RSS ×',
    ],
    rows: figures.map((figure) => [
      what[figure.command],
      formatCount(figure.small.events),
      formatSeconds(figure.small.result.seconds),
      formatKb(figure.small.result.maxRssKb),
      formatCount(figure.large.events),
      formatSeconds(figure.large.result.seconds),
      formatKb(figure.large.result.maxRssKb),
      formatRatio(figure.growth),
      formatRatio(figure.rssGrowth),
    ]),
    notes: [
      'Each run is a fresh `node bench/dist/child.js growth …` on a synthesised ping stream in a SQLite file ' +
        '(several runs: the two sizes in turn, and the run of median time at each is shown, its peak RSS with it); ' +
        'the time runs from after Node started and loaded the modules to the end of the command ' +
        '(the CLI commands through `runCli`, their stdout counted and dropped). Peak RSS is the whole process.',
    ],
  };
}

/** The issue's growth targets: time ratios ≤ 12×, report at 100,000 under 10 s, inspect's RSS flat. */
export function growthTargets(figures: readonly GrowthFigure[]): Target[] {
  const find = (command: GrowthCommand) => figures.find((figure) => figure.command === command);
  const label = (figure: GrowthFigure) =>
    `${what[figure.command]}: time at ${formatCount(figure.large.events)} ÷ at ${formatCount(figure.small.events)}`;
  const report = find('report');
  const inspect = find('inspect');
  return [
    ...figures.map((figure) => ratioTarget(label(figure), figure.growth, 12)),
    ...(report === undefined
      ? []
      : [
          timeTarget(
            `agentlog report --html on ${formatCount(report.large.events)} events`,
            report.large.result.seconds,
            10,
          ),
        ]),
    ...(inspect === undefined
      ? []
      : [
          ratioTarget(
            `agentlog inspect: peak RSS at ${formatCount(inspect.large.events)} ÷ at ${formatCount(inspect.small.events)}`,
            inspect.rssGrowth,
            1.5,
          ),
        ]),
  ];
}
