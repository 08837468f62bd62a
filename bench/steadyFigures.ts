import { contenderNames } from './contenderNames.js';
import { formatCount, formatRatio, formatSeconds } from './formatFigures.js';
import type { ResultTable } from './resultTable.js';
import { runChild } from './runChild.js';
import { steadyMeasured, steadyWarmUps, type SteadyScenario } from './steadyRuns.js';
import { summarise, type Summary } from './summarise.js';

/** The steady-state figures: per step of each scenario, and agentlog's ratios to its floors. */
export interface SteadyFigures {
  readonly steps: number;
  readonly rounds: number;
  /** Seconds per step, over the rounds (each round's figure the median of one child's runs). */
  readonly perStep: ReadonlyMap<SteadyScenario, Summary>;
  /** In memory ÷ the floor, the median over rounds of the ratio within a round. */
  readonly memoryToFloor: number | undefined;
  /** In memory ÷ the floor with checks, the same way. */
  readonly memoryToChecked: number | undefined;
  /** SQLite `process` ÷ the JSONL floor, the same way. */
  readonly sqliteToJsonl: number | undefined;
}

const order: readonly SteadyScenario[] = [
  'memory',
  'floor',
  'floor-checked',
  'sqlite-process',
  'floor-jsonl',
];

const names: Readonly<Record<SteadyScenario, string>> = {
  memory: contenderNames.memory,
  floor: contenderNames.floor,
  'floor-checked': contenderNames.floorChecked,
  'sqlite-process': 'agentlog, SQLite, durability process',
  'floor-jsonl': contenderNames.floorJsonl,
};

/**
 * Runs each steady-state scenario once per round, each in a fresh child (`child.js steady`), the
 * order rotating from round to round, and pairs agentlog with its floor within each round.
 */
export async function steadyFigures(
  childScript: string,
  steps: number,
  rounds: number,
  budgetSeconds: number,
  progress: (line: string) => void,
): Promise<SteadyFigures> {
  const byRound = new Map<SteadyScenario, number[]>(order.map((scenario) => [scenario, []]));
  for (let round = 0; round < rounds; round += 1) {
    progress(`  steady state, round ${round + 1} of ${rounds}`);
    for (let turn = 0; turn < order.length; turn += 1) {
      const scenario = order[(round + turn) % order.length] as SteadyScenario;
      const outcome = await runChild(childScript, ['steady', scenario, String(steps)], {
        budgetSeconds,
      });
      if (outcome.kind === 'timedOut')
        throw new Error(`steady ${scenario} timed out after ${outcome.afterSeconds} s`);
      byRound.get(scenario)?.push(outcome.result.seconds / steps);
    }
  }
  const ratio = (name: SteadyScenario, floor: SteadyScenario): number | undefined => {
    const floors = byRound.get(floor) ?? [];
    const ratios = (byRound.get(name) ?? []).map(
      (perStep, round) => perStep / (floors[round] ?? NaN),
    );
    const paired = ratios.filter((value) => Number.isFinite(value));
    return paired.length === 0 ? undefined : summarise(paired).median;
  };
  return {
    steps,
    rounds,
    perStep: new Map(order.map((scenario) => [scenario, summarise(byRound.get(scenario) ?? [])])),
    memoryToFloor: ratio('memory', 'floor'),
    memoryToChecked: ratio('memory', 'floor-checked'),
    sqliteToJsonl: ratio('sqlite-process', 'floor-jsonl'),
  };
}

/** The steady-state figures as a table. */
export function steadyTable(figures: SteadyFigures): ResultTable {
  const ratioText = (ratio: number | undefined) => (ratio === undefined ? '' : formatRatio(ratio));
  const row = (scenario: SteadyScenario, toFloor?: number, toChecked?: number): string[] => {
    const perStep = figures.perStep.get(scenario);
    return [
      names[scenario],
      String(perStep?.count ?? 0),
      perStep === undefined ? '–' : formatSeconds(perStep.median),
      perStep === undefined ? '–' : `${formatSeconds(perStep.min)}–${formatSeconds(perStep.max)}`,
      ratioText(toFloor),
      ratioText(toChecked),
    ];
  };
  return {
    title: `Steady state: per step, ${formatCount(figures.steps)} steps, after ${steadyWarmUps} warm-up runs in one process`,
    header: [
      'contender',
      'rounds',
      'per step',
      'min–max',
      '÷ its floor',
      '÷ the floor with checks',
    ],
    rows: [
      row('memory', figures.memoryToFloor, figures.memoryToChecked),
      row('floor'),
      row('floor-checked'),
      row('sqlite-process', figures.sqliteToJsonl),
      row('floor-jsonl'),
    ],
    notes: [
      `Each round runs each contender in a fresh process: ${steadyWarmUps} untimed runs of the scenario, then ${steadyMeasured} timed ones, each with a fresh model, tool and store; the process's figure is the median of the timed runs. ` +
        'This is what a long-lived worker pays once V8 has compiled the code; the side-by-side above is what a fresh process pays. ' +
        'The ratios are medians over rounds of agentlog ÷ a floor in the same round: "its floor" is the floor for agentlog in memory and the JSONL floor for SQLite. ' +
        'The floor with checks adds to the floor what a step must keep each done the plain way (bench/floorCheckedPing.ts): it is not a target, it shows how much of the distance to the floor the checks alone take.',
    ],
  };
}
