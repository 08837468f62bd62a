import type { SqliteDurability } from '@agentlog/store';

/** One SQLite row of the side-by-side: a durability setting, the ping tool idempotent or not. */
export interface SqliteVariant {
  readonly durability: SqliteDurability;
  readonly idempotentTool: boolean;
}

/** How much the bench measures: `--quick` runs fewer and smaller measurements. */
export interface BenchSettings {
  readonly quick: boolean;
  /** Skip the peer frameworks (`--no-peers`). */
  readonly noPeers: boolean;
  /** Step counts of the side-by-side ping scenario. */
  readonly steps: readonly number[];
  /** Rounds of the side-by-side: each contender runs once per round, in a fresh process. */
  readonly rounds: number;
  /** Seconds one child (its cold and its warm run) may take before it is killed. */
  readonly runTimeoutSeconds: number;
  /**
   * Seconds of runs (cold + warm) per peer other than the baseline, per step count; once the
   * next run would overspend it, later rounds skip that peer.
   */
  readonly rowBudgetSeconds: number;
  /** The agentlog-on-SQLite rows of the side-by-side. */
  readonly sqliteVariants: readonly SqliteVariant[];
  /** Peers (by row name) that skip step counts above `above`, and why (one line). */
  readonly peerSkips: Readonly<Record<string, { readonly above: number; readonly why: string }>>;
  /** Approval cycles per run. */
  readonly cycles: number;
  /** The durability settings the approval cycle runs with. */
  readonly approvalDurabilities: readonly SqliteDurability[];
  /** Runs of each agentlog-only figure. */
  readonly figureRuns: number;
  /** Runs of the fixture replay (each replays every session). */
  readonly fixtureRuns: number;
  /** Fold sizes to try, smallest first; a slow size stops the larger ones. */
  readonly foldSizes: readonly number[];
  /** Whether to run the store bench. */
  readonly storeBench: boolean;
}

/** The settings for the command-line `args` (`--quick`, `--no-peers`). */
export function benchSettings(args: readonly string[]): BenchSettings {
  const quick = args.includes('--quick');
  const noPeers = args.includes('--no-peers');
  const sideEffects: SqliteVariant = { durability: 'sideEffects', idempotentTool: false };
  const processOnly: SqliteVariant = { durability: 'process', idempotentTool: false };
  return quick
    ? {
        quick,
        noPeers,
        steps: [200, 2_000],
        rounds: 5,
        runTimeoutSeconds: 30,
        rowBudgetSeconds: 10,
        sqliteVariants: [sideEffects, processOnly],
        peerSkips: {
          'OpenAI Agents JS': {
            above: 200,
            why: 'not run at 2,000 steps in --quick (one run takes ~40 s); the full run has it',
          },
          LangGraph: {
            above: 200,
            why: 'not run at 2,000 steps in --quick (its cold + warm runs take ~10 s); the full run has it',
          },
        },
        cycles: 40,
        approvalDurabilities: ['sideEffects', 'process'],
        figureRuns: 3,
        fixtureRuns: 1,
        foldSizes: [1_000_000],
        storeBench: false,
      }
    : {
        quick,
        noPeers,
        steps: [200, 2_000],
        rounds: 5,
        runTimeoutSeconds: 180,
        rowBudgetSeconds: 480,
        sqliteVariants: [
          { durability: 'full', idempotentTool: false },
          sideEffects,
          { durability: 'sideEffects', idempotentTool: true },
          processOnly,
        ],
        peerSkips: {},
        cycles: 100,
        approvalDurabilities: ['sideEffects', 'process'],
        figureRuns: 5,
        fixtureRuns: 5,
        foldSizes: [2_500, 10_000, 100_000, 1_000_000],
        storeBench: true,
      };
}
