import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The sample history shipped with the example, in the shape of `git log --oneline`. */
export const SAMPLE_HISTORY = fileURLToPath(
  new URL('../fixtures/sample-history.txt', import.meta.url),
);

/** The commits a release is drafted from. */
export interface History {
  /** Where they came from, for the printed header. */
  readonly source: string;
  readonly from: string;
  readonly to: string;
  /** `git log --oneline` lines, newest first. */
  readonly lines: readonly string[];
}

/** A problem with the input that the user can fix: printed as is, without a stack. */
export class InputError extends Error {
  override readonly name = 'InputError';
}

/** The sample history: v0.33.0..v0.34.0 of a made-up library. */
export async function sampleHistory(): Promise<History> {
  const text = await readFile(SAMPLE_HISTORY, 'utf8');
  const lines = text.split('\n').filter((line) => line.trim() !== '' && !line.startsWith('#'));
  return { source: 'the sample history', from: 'v0.33.0', to: 'v0.34.0', lines };
}

/** `git log --oneline from..to` of the repository at `repo`, or an {@link InputError}. */
export async function gitHistory(
  repo: string,
  from: string,
  to: string,
  cwd: string = process.cwd(),
): Promise<History> {
  const git = (...args: string[]) =>
    run('git', ['-C', resolve(cwd, repo), ...args], { encoding: 'utf8' });
  try {
    await git('rev-parse', '--git-dir');
  } catch {
    throw new InputError(`--repo ${repo} is not a git repository`);
  }
  for (const tag of [from, to]) {
    try {
      await git('rev-parse', '--verify', '--quiet', `${tag}^{commit}`);
    } catch {
      throw new InputError(`${repo} has no tag or commit named ${tag}`);
    }
  }
  const { stdout } = await git('log', '--oneline', '--no-decorate', `${from}..${to}`);
  const lines = stdout.split('\n').filter((line) => line.trim() !== '');
  if (lines.length === 0) throw new InputError(`${repo} has no commits between ${from} and ${to}`);
  return { source: repo, from, to, lines };
}

/** The version a tag names, without a leading `v`. */
export function versionOf(tag: string): string {
  return tag.replace(/^v/, '');
}

/** The task the agent is given: fixed text around the log, so recordings stay valid. */
export function taskFor(history: History): string {
  return [
    `Draft the release notes for ${versionOf(history.to)}, from the commits since ${history.from}:`,
    '',
    ...history.lines,
  ].join('\n');
}
