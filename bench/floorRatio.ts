import type { SideBySideResults } from './sideBySide.js';
import { summarise } from './summarise.js';

/**
 * `name`'s run ÷ `floor`'s run of the same round at `steps` steps, the median over the rounds
 * both ran: a ratio to the floor taken at the same moment of a shared machine. `undefined` when
 * they never ran in the same round.
 */
export function floorRatio(
  results: SideBySideResults,
  name: string,
  floor: string,
  steps: number,
): number | undefined {
  const floorRuns = results.get(floor)?.get(steps)?.runs ?? [];
  const ratios = (results.get(name)?.get(steps)?.runs ?? []).flatMap((run) => {
    const paired = floorRuns.find((other) => other.round === run.round);
    return paired === undefined ? [] : [run.seconds / paired.seconds];
  });
  return ratios.length === 0 ? undefined : summarise(ratios).median;
}
