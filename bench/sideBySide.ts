import type { BenchSettings } from './benchSettings.js';
import type { ChildResult } from './childResult.js';
import { runChild } from './runChild.js';

/** One framework of the side-by-side: how to start a run of it for a number of steps. */
export interface Contender {
  readonly name: string;
  readonly script: string;
  args(steps: number): readonly string[];
  /** Why it does not run at `steps` (one line), when it does not. */
  skip?(steps: number): string | undefined;
  /**
   * Runs every round whatever its runs cost (agentlog's rows, the baseline, the floor); the
   * others sit out the remaining rounds once their runs used up the row budget.
   */
  readonly alwaysRuns?: boolean;
}

/** The two figures of each child: `cold` its first run, `warm` a second run right after it. */
export type Phase = 'cold' | 'warm';
export const phases: readonly Phase[] = ['cold', 'warm'];

/** One run of a contender: its round, seconds and peak RSS. */
export interface PingRun {
  readonly round: number;
  readonly seconds: number;
  readonly maxRssKb: number;
}

/** A contender's runs at one step count in one phase, and why it ran fewer than every round. */
export interface PingRuns {
  readonly runs: PingRun[];
  /** Set when a child timed out during this phase's run: the budget of the child, seconds. */
  timedOutAfter?: number;
  /** True when later rounds skipped it because its time budget was spent. */
  budgetSpent?: boolean;
  /** True when a child's warm run timed out, so later rounds skipped it (on the cold figures). */
  warmTimedOut?: boolean;
  /** Why it did not run at all (one line). */
  skipped?: string;
}

/** Every contender's runs, by name, then by step count. */
export type SideBySideResults = Map<string, Map<number, PingRuns>>;

/** The side-by-side's results, cold and warm. */
export type SideBySide = Readonly<Record<Phase, SideBySideResults>>;

/**
 * Runs the ping scenario for each step count in rounds: each round runs every contender once in a
 * fresh `node` process, which times a first run (cold) and then a second run of the same scenario
 * (warm), the order rotating from round to round so none is always first. A contender whose runs
 * at a step count would use up the row budget (unless it always runs), or that timed out, sits out
 * the rest.
 */
export async function sideBySide(
  contenders: readonly Contender[],
  settings: BenchSettings,
  progress: (line: string) => void,
): Promise<SideBySide> {
  const results: SideBySide = {
    cold: new Map(contenders.map((contender) => [contender.name, new Map<number, PingRuns>()])),
    warm: new Map(contenders.map((contender) => [contender.name, new Map<number, PingRuns>()])),
  };
  const entry = (phase: Phase, name: string, steps: number): PingRuns => {
    const byStep = results[phase].get(name) ?? new Map<number, PingRuns>();
    results[phase].set(name, byStep);
    const found = byStep.get(steps) ?? { runs: [] };
    byStep.set(steps, found);
    return found;
  };
  for (const steps of settings.steps) {
    const spent = new Map<string, number>();
    for (let round = 1; round <= settings.rounds; round += 1) {
      const order = contenders.map(
        (_, index) => contenders[(index + round - 1) % contenders.length],
      );
      for (const contender of order) {
        if (contender === undefined) continue;
        const cold = entry('cold', contender.name, steps);
        const warm = entry('warm', contender.name, steps);
        const skipped = contender.skip?.(steps);
        if (skipped !== undefined) {
          cold.skipped = skipped;
          warm.skipped = skipped;
          continue;
        }
        if (cold.timedOutAfter !== undefined || cold.warmTimedOut === true) continue;
        if (cold.budgetSpent === true) continue;
        const outcome = await runChild(contender.script, contender.args(steps), {
          budgetSeconds: settings.runTimeoutSeconds,
        });
        const byPhase = (phase: Phase): ChildResult | undefined =>
          outcome.results.find((result) => result.phase === phase);
        let total = spent.get(contender.name) ?? 0;
        for (const phase of phases) {
          const result = byPhase(phase);
          if (result === undefined) continue;
          entry(phase, contender.name, steps).runs.push({
            round,
            seconds: result.seconds,
            maxRssKb: result.maxRssKb,
          });
          total += result.seconds;
        }
        spent.set(contender.name, total);
        if (outcome.kind === 'timedOut') {
          const failed = byPhase('cold') === undefined ? cold : warm;
          failed.timedOutAfter = settings.runTimeoutSeconds;
          if (failed === warm) cold.warmTimedOut = true;
          progress(
            `  ${contender.name}, ${steps} steps: timed out after ${settings.runTimeoutSeconds} s (${failed === cold ? 'cold' : 'warm'} run)`,
          );
          continue;
        }
        if (byPhase('cold') === undefined || byPhase('warm') === undefined) {
          throw new Error(`${contender.name}: the child did not print a cold and a warm result`);
        }
        // Stop before a run that the mean run so far says would overspend the budget.
        const next = total / cold.runs.length;
        if (
          contender.alwaysRuns !== true &&
          total + next > settings.rowBudgetSeconds &&
          round < settings.rounds
        ) {
          cold.budgetSpent = true;
          warm.budgetSpent = true;
        }
      }
      progress(`  ${steps} steps: round ${round} of ${settings.rounds} done`);
    }
  }
  return results;
}
