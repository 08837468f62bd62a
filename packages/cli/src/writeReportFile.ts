import { randomBytes } from 'node:crypto';
import { link, lstat, mkdir, realpath, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { CliError } from './cliError.js';

/** Where and how {@link writeReportFile} may write. */
export interface WriteReportOptions {
  /** The target as the user gave it, for messages. */
  readonly given: string;
  /** Replace an existing file (`--force`); never one of `reads`. */
  readonly force: boolean;
  /** The files the command reads (its store and what goes with it, its JSONL file). */
  readonly reads: readonly string[];
}

/**
 * Writes `text` to the absolute `path` without ever leaving a partial file (SPEC REV-2): into a
 * temporary file in the same folder, then moved into place. An existing file is replaced only
 * with `force`; a file the command reads (compared after resolving symlinks, and by inode for
 * hard links) never, even with `force`. Refusals are a `CliError` naming the file.
 */
export async function writeReportFile(
  path: string,
  text: string,
  options: WriteReportOptions,
): Promise<void> {
  const { given, force } = options;
  const folder = dirname(path);
  for (const read of options.reads)
    if (await sameFile(path, read))
      throw new CliError(
        `refusing to write the report over ${given}: it is ${read}, which this report reads (--force does not change that)`,
      );
  const existing = await lstat(path).catch(() => undefined);
  if (existing?.isDirectory() === true)
    throw new CliError(`cannot write the report to ${given}: it is a folder`);
  if (existing !== undefined && !force) throw exists(given);
  // Created only once nothing is refused.
  await mkdir(folder, { recursive: true });
  const temp = join(folder, `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    await writeFile(temp, text, { flag: 'wx' });
    if (force) await rename(temp, path);
    else await linkWithoutReplacing(temp, path, given);
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(`cannot write the report to ${given}: ${(error as Error).message}`);
  } finally {
    await rm(temp, { force: true });
  }
}

function exists(given: string): CliError {
  return new CliError(
    `refusing to write the report over ${given}: the file exists; give --force to replace it`,
  );
}

/** Puts `temp` at `path` unless a file appeared there meanwhile (a hard link cannot replace one). */
async function linkWithoutReplacing(temp: string, path: string, given: string): Promise<void> {
  try {
    await link(temp, path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') throw exists(given);
    // A file system without hard links: check once more, then move the file into place.
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP') throw error;
    if ((await lstat(path).catch(() => undefined)) !== undefined) throw exists(given);
    await rename(temp, path);
  }
}

/** The path with every symlink resolved; for a missing file, its folder's real path. */
async function realPathOf(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    const folder = await realpath(dirname(path)).catch(() => dirname(path));
    return join(folder, basename(path));
  }
}

/** Whether `a` and `b` name the same file: the same real path, or the same inode. */
async function sameFile(a: string, b: string): Promise<boolean> {
  if ((await realPathOf(a)) === (await realPathOf(b))) return true;
  const [x, y] = await Promise.all([
    stat(a).catch(() => undefined),
    stat(b).catch(() => undefined),
  ]);
  return x !== undefined && y !== undefined && x.dev === y.dev && x.ino === y.ino;
}
