import { fork } from 'node:child_process';
import { join } from 'node:path';

const worker = join(import.meta.dirname, 'lockHolderWorker.ts');

/** A write lock another OS process holds on an SQLite file until `release()`. */
export interface HeldWriteLock {
  release(): Promise<void>;
}

/**
 * Starts a process that opens `path` (creating it if missing) and holds its write lock
 * (`BEGIN IMMEDIATE`); resolves once the lock is held.
 */
export async function holdWriteLock(path: string): Promise<HeldWriteLock> {
  const child = fork(worker, [path], {
    execArgv: ['--conditions=source', '--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    void exited.then(() =>
      reject(new Error(`the lock holder on ${path} exited before holding it`)),
    );
  });
  return {
    release: () => {
      child.send('release');
      return exited;
    },
  };
}
