import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runChild } from './runChild.js';
import { summarise, type Summary } from './summarise.js';

/** Times on the long SQLite stream: build (fold on build), resume (build + one step), fork. */
export interface SqliteFigures {
  readonly events: number;
  readonly build: Summary;
  readonly resume: Summary;
  readonly fork: Summary;
}

/**
 * Writes a stream of about `size` events to a SQLite file once (in a child), then runs each
 * figure `runs` times, each in a fresh child on its own copy of the file, so a resume or a fork
 * never changes what the next run reads.
 */
export async function sqliteFigures(
  childScript: string,
  size: number,
  runs: number,
  budgetSeconds: number,
): Promise<SqliteFigures> {
  const dir = await mkdtemp(join(tmpdir(), 'agentlog-bench-stream-'));
  try {
    const prepared = await runChild(childScript, ['sqlite-prepare', dir, String(size)], {
      budgetSeconds: 600,
    });
    if (prepared.kind === 'timedOut') throw new Error('writing the long SQLite stream timed out');
    const events = prepared.result.figures?.['events'] ?? size;
    const measure = async (figure: 'build' | 'resume' | 'fork'): Promise<Summary> => {
      const seconds: number[] = [];
      for (let run = 0; run < runs; run += 1) {
        const copy = join(dir, `${figure}-${run}`);
        await mkdir(copy);
        await copyFile(join(dir, 'stream.db'), join(copy, 'stream.db'));
        const outcome = await runChild(childScript, [`sqlite-${figure}`, copy], {
          budgetSeconds,
          prepareSeconds: 120,
        });
        if (outcome.kind === 'timedOut')
          throw new Error(`sqlite ${figure} timed out after ${budgetSeconds} s`);
        seconds.push(outcome.result.seconds);
        await rm(copy, { recursive: true, force: true });
      }
      return summarise(seconds);
    };
    return {
      events,
      build: await measure('build'),
      resume: await measure('resume'),
      fork: await measure('fork'),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
