import type { BenchSettings } from './benchSettings.js';
import { runChild } from './runChild.js';

/** One framework of the side-by-side: how to start a run of it for a number of steps. */
export interface Contender {
  readonly name: string;
  readonly script: string;
  args(steps: number): readonly string[];
}

/** One run of a contender: its round, seconds and peak RSS. */
export interface PingRun {
  readonly round: number;
  readonly seconds: number;
  readonly maxRssKb: number;
}

/** A contender's runs at one step count, and the budget of a run that timed out, if one did. */
export interface PingRuns {
  readonly runs: PingRun[];
  timedOutAfter?: number;
  /** True when later rounds skipped it because its time budget was spent. */
  budgetSpent?: boolean;
}

/** Every contender's runs, by name, then by step count. */
export type SideBySideResults = Map<string, Map<number, PingRuns>>;

/**
 * Runs the ping scenario for each step count in rounds: each round runs every contender once, each
 * run in a fresh `node` process, the order rotating from round to round so none is always first.
 * A contender whose runs at a step count used up the row budget, or timed out, sits out the rest.
 */
export async function sideBySide(
  contenders: readonly Contender[],
  settings: BenchSettings,
  progress: (line: string) => void,
): Promise<SideBySideResults> {
  const results: SideBySideResults = new Map(
    contenders.map((contender) => [contender.name, new Map<number, PingRuns>()]),
  );
  for (const steps of settings.steps) {
    const spent = new Map<string, number>();
    for (let round = 1; round <= settings.rounds; round += 1) {
      const order = contenders.map(
        (_, index) => contenders[(index + round - 1) % contenders.length],
      );
      for (const contender of order) {
        if (contender === undefined) continue;
        const byStep = results.get(contender.name);
        if (byStep === undefined) continue;
        const entry = byStep.get(steps) ?? { runs: [] };
        byStep.set(steps, entry);
        if (entry.timedOutAfter !== undefined || entry.budgetSpent === true) continue;
        const outcome = await runChild(contender.script, contender.args(steps), {
          budgetSeconds: settings.runTimeoutSeconds,
        });
        if (outcome.kind === 'timedOut') {
          entry.timedOutAfter = settings.runTimeoutSeconds;
          progress(
            `  ${contender.name}, ${steps} steps: timed out after ${settings.runTimeoutSeconds} s`,
          );
          continue;
        }
        entry.runs.push({
          round,
          seconds: outcome.result.seconds,
          maxRssKb: outcome.result.maxRssKb,
        });
        const total = (spent.get(contender.name) ?? 0) + outcome.result.seconds;
        spent.set(contender.name, total);
        if (total > settings.rowBudgetSeconds && round < settings.rounds) entry.budgetSpent = true;
      }
      progress(`  ${steps} steps: round ${round} of ${settings.rounds} done`);
    }
  }
  return results;
}
