import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChildResult } from './childResult.js';
import type { ResumeFigure } from './resumeBench.js';
import { runChild } from './runChild.js';
import { summarise, type Summary } from './summarise.js';

/** One figure at one stream size: medians over its runs, each run a fresh child. */
export interface ResumeMeasurement {
  readonly events: number;
  readonly runs: number;
  /** Wall seconds of the timed part. */
  readonly seconds: Summary;
  /** CPU seconds of the process (user + system, every thread) during the timed part. */
  readonly cpuSeconds: Summary;
  /** heapUsed after a full collection with the result held, minus before; per event. */
  readonly retainedBytesPerEvent: number;
  /** Peak RSS of the process minus its RSS before the timed part; per event. */
  readonly peakRssBytesPerEvent: number;
}

/** The resume figures at every size, smallest first. */
export interface ResumeFigures {
  readonly sizes: readonly number[];
  readonly quick: boolean;
  readonly at: (figure: ResumeFigure, size: number) => ResumeMeasurement;
}

const figures: readonly ResumeFigure[] = ['baseline', 'build', 'fold', 'decodeFold', 'fork'];

/**
 * Writes one SQLite file with one stream per size (a child, through the store's append), then
 * runs each figure `runs` times per size, each in a fresh `node --expose-gc` child on that file
 * (a fork's new stream is deleted after it, so every run reads the same file). The file lives in
 * a temporary folder removed at the end. Full run: 100,000 and 1,000,000 events, 3 runs each;
 * `--quick`: 10,000 and 100,000 events, 1 run each.
 */
export async function resumeFigures(
  childScript: string,
  quick: boolean,
  progress: (line: string) => void,
): Promise<ResumeFigures> {
  const sizes = quick ? [10_000, 100_000] : [100_000, 1_000_000];
  const runs = quick ? 1 : 3;
  const dir = await mkdtemp(join(tmpdir(), 'agentlog-bench-resume-'));
  try {
    const prepared = await runChild(childScript, ['resume-prepare', dir, sizes.join(',')], {
      budgetSeconds: 900,
    });
    if (prepared.kind === 'timedOut') throw new Error('writing the resume streams timed out');
    const results = new Map<string, ResumeMeasurement>();
    for (const size of sizes) {
      for (const figure of figures) {
        const outcomes: ChildResult[] = [];
        for (let run = 0; run < runs; run += 1) {
          const outcome = await runChild(childScript, [`resume-${figure}`, dir, String(size)], {
            budgetSeconds: 300,
            prepareSeconds: 300,
            nodeFlags: ['--expose-gc', '--max-old-space-size=12288'],
          });
          if (outcome.kind === 'timedOut')
            throw new Error(`resume ${figure} of ${size} events timed out`);
          outcomes.push(outcome.result);
        }
        const figure_ = (name: string) =>
          summarise(outcomes.map((result) => result.figures?.[name] ?? Number.NaN)).median;
        const events = figure_('events');
        results.set(`${figure}:${size}`, {
          events,
          runs,
          seconds: summarise(outcomes.map((result) => result.seconds)),
          cpuSeconds: summarise(outcomes.map((result) => result.figures?.['cpuSeconds'] ?? 0)),
          retainedBytesPerEvent: figure_('retainedBytes') / events,
          peakRssBytesPerEvent: figure_('peakRssBytes') / events,
        });
      }
      progress(`  resume figures at ${size.toLocaleString('en-US')} events done`);
    }
    return {
      sizes,
      quick,
      at: (figure, size) => {
        const found = results.get(`${figure}:${size}`);
        if (found === undefined) throw new Error(`resume figures: no ${figure} at ${size}`);
        return found;
      },
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
