import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { summarise, type Summary } from './summarise.js';

/** Wall-clock times of replaying every recorded session, and how many sessions replayed. */
export interface FixtureReplayFigure {
  readonly sessions: number;
  readonly seconds: Summary;
}

/**
 * Times the fixture replay suite through the public replay command of @agentlog/replay:
 * `agentlog replay fixtures/sessions --agent fixtures/agents.ts`, in a fresh process per run
 * (wall clock, so it includes Node's start and loading the agents module through tsx). Fails
 * when a session diverges.
 */
export async function fixtureReplayFigure(
  rootDir: string,
  runs: number,
): Promise<FixtureReplayFigure> {
  const cli = join(rootDir, 'node_modules', '.bin', 'agentlog');
  const seconds: number[] = [];
  let sessions = 0;
  for (let run = 0; run < runs; run += 1) {
    const start = performance.now();
    const output = await new Promise<string>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        [cli, 'replay', 'fixtures/sessions', '--agent', 'fixtures/agents.ts'],
        {
          cwd: rootDir,
          stdio: ['ignore', 'pipe', 'pipe'],
          env: { ...process.env, NO_COLOR: '1' },
        },
      );
      let text = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      child.on('error', reject);
      child.on('close', (code) =>
        code === 0
          ? resolve(text)
          : reject(new Error(`agentlog replay exited with ${code}:\n${text.trim()}`)),
      );
    });
    seconds.push((performance.now() - start) / 1_000);
    const summary = /(\d+) replayed, 0 diverged/.exec(output);
    if (summary === null) throw new Error(`agentlog replay: unexpected output:\n${output.trim()}`);
    sessions = Number(summary[1]);
  }
  return { sessions, seconds: summarise(seconds) };
}
