import { agentlogPing } from './agentlogPing.js';
import { reportChildResult } from './childResult.js';
import { floorCheckedPing } from './floorCheckedPing.js';
import { floorJsonlPing } from './floorJsonlPing.js';
import { floorPing } from './floorPing.js';
import { summarise } from './summarise.js';

/** What a steady-state child runs: agentlog in memory or on SQLite (`process`), or a floor. */
export type SteadyScenario =
  'memory' | 'sqlite-process' | 'floor' | 'floor-checked' | 'floor-jsonl';

const scenarios: readonly SteadyScenario[] = [
  'memory',
  'sqlite-process',
  'floor',
  'floor-checked',
  'floor-jsonl',
];

/** Warm-up runs before the measured ones: by the fourth 2,000-step run V8 has stopped compiling. */
export const steadyWarmUps = 6;
/** Measured runs after the warm-ups; the child reports their median. */
export const steadyMeasured = 5;

/** The scenario named on the command line, or an error naming what is allowed. */
export function steadyScenario(text: string): SteadyScenario {
  const found = scenarios.find((scenario) => scenario === text);
  if (found === undefined)
    throw new Error(`bench child: steady takes ${scenarios.join('|')}, not ${text}`);
  return found;
}

/**
 * The steady state of a long-lived process: the scenario runs `steadyWarmUps` times untimed,
 * then `steadyMeasured` times, each run with a fresh model, tool and store, all in this one
 * process. Reports the median of the measured runs as `seconds`, with each measured run's
 * seconds as figures `run1`…`run5`.
 */
export async function steadyRuns(scenario: SteadyScenario, steps: number): Promise<void> {
  const run = (): Promise<number> => {
    switch (scenario) {
      case 'memory':
        return agentlogPing(steps, { kind: 'memory' });
      case 'sqlite-process':
        return agentlogPing(steps, {
          kind: 'sqlite',
          durability: 'process',
          idempotentTool: false,
        });
      case 'floor':
        return floorPing(steps);
      case 'floor-checked':
        return floorCheckedPing(steps);
      case 'floor-jsonl':
        return floorJsonlPing(steps);
    }
  };
  for (let warmUp = 0; warmUp < steadyWarmUps; warmUp += 1) await run();
  const measured: number[] = [];
  for (let index = 0; index < steadyMeasured; index += 1) measured.push(await run());
  reportChildResult({
    seconds: summarise(measured).median,
    figures: Object.fromEntries(measured.map((seconds, index) => [`run${index + 1}`, seconds])),
  });
}
