import { readFile, unlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';

/** Who holds a JSONL file's lock, as its lock file says. */
interface LockOwner {
  readonly pid: number;
  readonly host: string;
  readonly since: string;
}

/** How long `withJsonlLock` waits for another writer to finish before it refuses. */
export const jsonlLockWaitMs = 10_000;

const pollMs = 15;

/**
 * Runs `work` while holding `<path>.lock`, a file created exclusively (`wx`) that names this
 * process (pid, host, since when), and removes it afterwards; so two processes appending to one
 * JSON Lines file take turns instead of interleaving their bytes. A lock left by a process of this
 * host that no longer runs is taken over; a live writer is waited for up to `waitMs`, then the
 * call fails with an error naming that writer and the lock file.
 */
export async function withJsonlLock<T>(
  path: string,
  work: () => Promise<T>,
  waitMs = jsonlLockWaitMs,
): Promise<T> {
  const lockPath = `${path}.lock`;
  const mine = `${JSON.stringify({ pid: process.pid, host: hostname(), since: new Date().toISOString() })}\n`;
  await acquire(lockPath, mine, Date.now() + waitMs);
  try {
    return await work();
  } finally {
    // Only our own lock is removed: a lock file that says otherwise belongs to someone else.
    if ((await readOrUndefined(lockPath)) === mine) await unlink(lockPath).catch(() => undefined);
  }
}

async function acquire(lockPath: string, mine: string, deadline: number): Promise<void> {
  for (;;) {
    try {
      await writeFile(lockPath, mine, { flag: 'wx' });
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const text = await readOrUndefined(lockPath);
    // Released between our attempt and the read: try again at once.
    if (text === undefined) continue;
    const owner = parseOwner(text);
    if (owner !== undefined && isStale(owner)) {
      // Remove it only if it still is that stale lock, not one a third process just took.
      if ((await readOrUndefined(lockPath)) === text) await unlink(lockPath).catch(ignoreMissing);
      continue;
    }
    if (Date.now() >= deadline) throw lockedError(lockPath, owner);
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

/** A lock of a process of this host that no longer runs; another host's lock is never stale. */
function isStale(owner: LockOwner): boolean {
  if (owner.host !== hostname()) return false;
  try {
    process.kill(owner.pid, 0);
    return false;
  } catch (error) {
    // EPERM: the process runs, under another user.
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

function parseOwner(text: string): LockOwner | undefined {
  try {
    const value = JSON.parse(text) as Partial<LockOwner> | null;
    if (
      typeof value?.pid === 'number' &&
      Number.isSafeInteger(value.pid) &&
      value.pid > 0 &&
      typeof value.host === 'string' &&
      typeof value.since === 'string'
    )
      return { pid: value.pid, host: value.host, since: value.since };
  } catch {
    // Being written, or not a lock of ours: treated as held.
  }
  return undefined;
}

function lockedError(lockPath: string, owner: LockOwner | undefined): Error {
  const who =
    owner === undefined
      ? `an unknown writer (its lock file ${lockPath} names no process)`
      : `process ${owner.pid} on host ${owner.host}, since ${owner.since} (lock file ${lockPath})`;
  return new Error(
    `another writer is writing it: ${who}; if no such process writes it, delete the lock file`,
  );
}

async function readOrUndefined(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    ignoreMissing(error);
    return undefined;
  }
}

function ignoreMissing(error: unknown): void {
  if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
}
