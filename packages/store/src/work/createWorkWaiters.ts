/**
 * The waits of `WorkIndex.waitForWork` in one process: `wait` resolves after `ms`, at once when
 * its signal aborts, or when `wake` is called. A wake while nobody waits is kept for the next
 * wait, so work that appears between a worker's `findWork` and its next wait is not slept through.
 */
export interface WorkWaiters {
  wait(ms: number, signal?: AbortSignal): Promise<void>;
  /** Resolves every wait, or the next one when none is pending. */
  wake(): void;
  /** How many waits are pending. */
  readonly size: number;
  /** Resolves every pending wait (the store is closing). */
  close(): void;
}

/** Creates the waits of one store; see `WorkWaiters`. */
export function createWorkWaiters(): WorkWaiters {
  const pending = new Set<() => void>();
  let woken = false;
  return {
    wait(ms, signal) {
      if (!Number.isFinite(ms) || ms < 0) {
        return Promise.reject(
          new RangeError(`waitForWork: ms must be a number >= 0, not ${String(ms)}`),
        );
      }
      if (woken || signal?.aborted === true) {
        woken = false;
        return Promise.resolve();
      }
      return new Promise((resolve) => {
        const done = (): void => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', done);
          pending.delete(done);
          resolve();
        };
        const timer = setTimeout(done, ms);
        signal?.addEventListener('abort', done, { once: true });
        pending.add(done);
      });
    },
    wake() {
      if (pending.size === 0) {
        woken = true;
        return;
      }
      for (const done of [...pending]) done();
    },
    get size() {
      return pending.size;
    },
    close() {
      for (const done of [...pending]) done();
    },
  };
}
