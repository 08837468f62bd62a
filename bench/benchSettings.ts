/** How much the bench measures: `--quick` runs fewer and smaller measurements. */
export interface BenchSettings {
  readonly quick: boolean;
  /** Skip the peer frameworks (`--no-peers`). */
  readonly noPeers: boolean;
  /** Step counts of the side-by-side ping scenario. */
  readonly steps: readonly number[];
  /** Rounds of the side-by-side: each contender runs once per round, in a fresh process. */
  readonly rounds: number;
  /** Seconds one run may take before it is killed and reported as timed out. */
  readonly runTimeoutSeconds: number;
  /** Seconds of runs per contender and step count; once spent, later rounds skip it. */
  readonly rowBudgetSeconds: number;
  /** Approval cycles per run. */
  readonly cycles: number;
  /** Runs of each agentlog-only figure. */
  readonly figureRuns: number;
  /** Fold sizes to try, smallest first; a slow size stops the larger ones. */
  readonly foldSizes: readonly number[];
  /** Whether to run the store bench. */
  readonly storeBench: boolean;
}

/** The settings for the command-line `args` (`--quick`, `--no-peers`). */
export function benchSettings(args: readonly string[]): BenchSettings {
  const quick = args.includes('--quick');
  const noPeers = args.includes('--no-peers');
  return quick
    ? {
        quick,
        noPeers,
        steps: [200, 2_000],
        rounds: 5,
        runTimeoutSeconds: 12,
        rowBudgetSeconds: 10,
        cycles: 40,
        figureRuns: 3,
        foldSizes: [10_000, 1_000_000],
        storeBench: false,
      }
    : {
        quick,
        noPeers,
        steps: [200, 2_000],
        rounds: 5,
        runTimeoutSeconds: 180,
        rowBudgetSeconds: 400,
        cycles: 100,
        figureRuns: 5,
        foldSizes: [2_500, 10_000, 100_000, 1_000_000],
        storeBench: true,
      };
}
