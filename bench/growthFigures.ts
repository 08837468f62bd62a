import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchSettings } from './benchSettings.js';
import type { GrowthCommand } from './measureCliGrowth.js';
import type { ChildResult } from './childResult.js';
import { formatCount } from './formatFigures.js';
import { runChild } from './runChild.js';

/** One command timed on a stream of `small` events and one about ten times as long. */
export interface GrowthFigure {
  readonly command: GrowthCommand;
  readonly small: { readonly events: number; readonly result: ChildResult };
  readonly large: { readonly events: number; readonly result: ChildResult };
  /** Seconds at the large size ÷ seconds at the small one. */
  readonly growth: number;
  /** Peak RSS at the large size ÷ at the small one. */
  readonly rssGrowth: number;
}

/** The sizes of the issue (full run), or 1,000 → 10,000 for every command with `--quick`. */
export function growthSizes(quick: boolean): Record<GrowthCommand, readonly [number, number]> {
  if (quick) {
    const quickSizes = [1_000, 10_000] as const;
    return {
      replay: quickSizes,
      report: quickSizes,
      inspect: quickSizes,
      fork: quickSizes,
      list: quickSizes,
      pending: quickSizes,
    };
  }
  return {
    replay: [1_000, 10_000],
    report: [10_000, 100_000],
    inspect: [100_000, 1_000_000],
    fork: [100_000, 1_000_000],
    list: [100_000, 1_000_000],
    pending: [100_000, 1_000_000],
  };
}

/**
 * Writes one SQLite file per size (a synthesised valid ping stream, in a child), then times each
 * command at its two sizes, each run in a fresh child (`growth` in child.ts: Node's start and
 * module loading are not timed). A full run times each size three times, the two sizes in turn,
 * and keeps the run of median time at each (a single run of a 10-second command on a shared
 * machine moved by a third); `--quick` runs each once. The figures are a ratio within one bench
 * run.
 */
export async function growthFigures(
  childScript: string,
  settings: BenchSettings,
  progress: (line: string) => void,
): Promise<GrowthFigure[]> {
  const sizes = growthSizes(settings.quick);
  const root = await mkdtemp(join(tmpdir(), 'agentlog-bench-growth-'));
  try {
    const dirs = new Map<number, { dir: string; events: number }>();
    for (const size of new Set(Object.values(sizes).flat())) {
      const dir = join(root, String(size));
      await mkdir(dir);
      progress(`  growth: writing a ${formatCount(size)}-event SQLite stream …`);
      const prepared = await runChild(childScript, ['sqlite-prepare', dir, String(size)], {
        budgetSeconds: 900,
      });
      if (prepared.kind === 'timedOut') throw new Error(`writing ${size} events timed out`);
      dirs.set(size, { dir, events: prepared.result.figures?.['events'] ?? size });
    }
    const measure = async (command: GrowthCommand, size: number): Promise<Measured> => {
      const at = dirs.get(size);
      if (at === undefined) throw new Error(`no stream of ${size} events`);
      progress(`  growth: ${command} on ${formatCount(at.events)} events …`);
      const outcome = await runChild(childScript, ['growth', at.dir, command], {
        budgetSeconds: 600,
        prepareSeconds: 300,
      });
      if (outcome.kind === 'timedOut') throw new Error(`${command} at ${size} timed out`);
      return { events: at.events, result: outcome.result };
    };
    const figures: GrowthFigure[] = [];
    for (const [command, [smallSize, largeSize]] of Object.entries(sizes) as [
      GrowthCommand,
      readonly [number, number],
    ][]) {
      const smalls: Measured[] = [];
      const larges: Measured[] = [];
      for (let run = 0; run < growthRuns(settings.quick); run += 1) {
        smalls.push(await measure(command, smallSize));
        larges.push(await measure(command, largeSize));
      }
      const small = medianRun(smalls);
      const large = medianRun(larges);
      figures.push({
        command,
        small,
        large,
        growth: large.result.seconds / small.result.seconds,
        rssGrowth: large.result.maxRssKb / small.result.maxRssKb,
      });
    }
    return figures;
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

/** One timed run of a command at one size. */
interface Measured {
  readonly events: number;
  readonly result: ChildResult;
}

/** Runs per size: three in a full run, one with `--quick`. */
export function growthRuns(quick: boolean): number {
  return quick ? 1 : 3;
}

/** The run of median time (of an even count, the faster of the two middle ones). */
function medianRun(runs: readonly Measured[]): Measured {
  const sorted = [...runs].sort((a, b) => a.result.seconds - b.result.seconds);
  const median = sorted[Math.floor((sorted.length - 1) / 2)];
  if (median === undefined) throw new Error('growth: no run to take the median of');
  return median;
}
