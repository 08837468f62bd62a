/** Watches the event loop for the longest time a timer could not run; see `watchEventLoop`. */
export interface EventLoopWatch {
  /** Stops watching; resolves with the longest stall seen, in milliseconds. */
  stop(): Promise<number>;
}

/**
 * Starts a 5 ms interval and records the longest gap between two of its ticks: how long the event
 * loop was blocked at most while it ran.
 */
export function watchEventLoop(): EventLoopWatch {
  let last = performance.now();
  let longest = 0;
  const tick = () => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  };
  const timer = setInterval(tick, 5);
  return {
    async stop() {
      // One more tick after the work, so a stall at the very end is counted.
      await new Promise((resolve) => setTimeout(resolve, 10));
      tick();
      clearInterval(timer);
      return longest;
    },
  };
}
