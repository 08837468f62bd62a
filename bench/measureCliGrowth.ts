import { copyFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Agent } from '@agentlog/core';
import { replayStream } from '@agentlog/replay';
import { createSqliteEventStore } from '@agentlog/store';
import { reportChildResult, reportReady } from './childResult.js';
import { pingModel } from './pingModel.js';
import { pingTool } from './pingTool.js';
import { benchStreamId, dbFileName } from './sqliteStreamBench.js';
import { templateEvents } from './templateEvents.js';

/** What a growth child measures on the stream of a SQLite file. */
export const growthCommands = ['replay', 'report', 'inspect', 'fork', 'list', 'pending'] as const;
export type GrowthCommand = (typeof growthCommands)[number];

/** The `agentlog` command line as a module: `runCli(argv, io)`, resolving to the exit code. */
type RunCli = (
  argv: readonly string[],
  io: {
    stdout: (text: string) => void;
    stderr: (text: string) => void;
    env: Record<string, string>;
    cwd: string;
    isTTY: boolean;
  },
) => Promise<number>;

/**
 * Child: times `command` on the stream in `dir`/stream.db, from after Node's start and the
 * loading of the modules to the end of the command; the peak RSS is the process's. `replay` is
 * `replayStream` of a real ping run of about as many events as the file holds (made untimed); the others run the
 * `agentlog` command line through its module (`runCli` in packages/cli/dist), its
 * standard output counted and dropped. `fork` works on a copy of the file (`--at` its middle);
 * `report` writes its page in `dir`.
 */
export async function measureCliGrowth(
  rootDir: string,
  dir: string,
  command: GrowthCommand,
): Promise<void> {
  const path = join(dir, dbFileName);
  const store = createSqliteEventStore({ path, readonly: true });
  const last = (await store.readStream(benchStreamId, { direction: 'backwards', maxCount: 1 }))[0]
    ?.metadata.revision;
  if (last === undefined) throw new Error(`no stream ${benchStreamId} in ${dir}`);
  if (command === 'replay') {
    // A synthesised stream does not replay (its requests' fingerprints are the template's): the
    // recording is a real ping run of as many events, made here, untimed.
    store.close();
    const recorded = await templateEvents(benchStreamId, Math.max(2, Math.round((last + 1) / 4)));
    reportReady();
    const start = performance.now();
    const ping = pingTool();
    const result = await replayStream(recorded, {
      agent: () => Agent.builder().llm(pingModel(1, 'replay')).tools([ping.tool]),
    });
    const seconds = (performance.now() - start) / 1_000;
    if (!result.ok) throw new Error(`replay diverged: ${result.divergence.message}`);
    reportChildResult({ seconds, figures: { events: recorded.length } });
    return;
  }
  store.close();
  let target = path;
  if (command === 'fork') {
    target = join(dir, `fork-${process.pid}.db`);
    await copyFile(path, target);
  }
  const runCliUrl = pathToFileURL(join(rootDir, 'packages/cli/dist/runCli.js')).href;
  const { runCli } = (await import(runCliUrl)) as { runCli: RunCli };
  const args: Record<Exclude<GrowthCommand, 'replay'>, string[]> = {
    report: ['report', benchStreamId, '--html', 'report.html', '--force'],
    inspect: ['inspect', benchStreamId],
    fork: ['fork', benchStreamId, '--at', String(Math.floor(last / 2)), '--to', 'bench-fork'],
    list: ['list'],
    pending: ['pending'],
  };
  let bytes = 0;
  let errors = '';
  reportReady();
  const start = performance.now();
  const code = await runCli([...args[command], '--store', target], {
    stdout: (text) => (bytes += text.length),
    stderr: (text) => (errors += text),
    env: {},
    cwd: dir,
    isTTY: false,
  });
  const seconds = (performance.now() - start) / 1_000;
  if (code !== 0) throw new Error(`agentlog ${command} exited ${code}: ${errors}`);
  reportChildResult({ seconds, figures: { events: last + 1, outputChars: bytes } });
}
