import { isLeaseLost } from '../errors/fenceErrors.js';

/**
 * How the run's abort reaches the tools of a batch (SPEC LOOP-10 with TOOL-7, WRK-5): through a
 * signal of the batch's own, aborted only once the batch has noted which calls had finished.
 *
 * A tool's result reaches the batch through several promise steps (the tool's async wrapper,
 * `invokeTool`, a tool runner), so a tool that returned before the abort can still have its result
 * on the way when the run's signal fires. Judged at that instant, it would count as cut off and
 * lose its outcome. The relay waits one macrotask instead, by which time every such result has
 * arrived, notes which calls have settled, and only then aborts the tools' signal: a call settled
 * by then finished before any tool could hear of the abort, and a call that settles later is one
 * the abort cut off. Tools that honour `context.signal` are judged right whatever order they
 * settle in; a tool that listens to the caller's signal directly is not covered. A run that lost
 * its lease is the exception: its tools hear it at once, since nothing of the run is recorded.
 */
export class AbortRelay {
  readonly #run: AbortSignal;
  /** Made when a tool first reads the signal: a batch whose tools never look costs none. */
  #tools: AbortController | undefined;
  /** The abort was passed on to the tools: a signal made from now on starts aborted. */
  #relayed = false;
  #settled: readonly boolean[] = [];
  #finished: readonly boolean[] | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;

  /** Watches `run`, which has not aborted yet: the batch checked it before its tools start. */
  constructor(run: AbortSignal) {
    this.#run = run;
    // Registered before any tool is invoked, so an abort from inside a tool is not missed.
    run.addEventListener('abort', this.#onAbort, { once: true });
  }

  /** The signal the batch's tools see as `context.signal`. */
  get signal(): AbortSignal {
    if (this.#tools === undefined) {
      this.#tools = new AbortController();
      if (this.#relayed) this.#tools.abort(this.#run.reason);
    }
    return this.#tools.signal;
  }

  /**
   * Which calls had finished when the abort reached the tools, by batch index; `undefined` while
   * it has not. Only these get an outcome: the others stay started (SPEC TOOL-7).
   */
  get finishedAtAbort(): readonly boolean[] | undefined {
    return this.#finished;
  }

  /** Follows the calls' results, in batch order (they never reject: a failure is a result). */
  track(pending: readonly Promise<unknown>[]): void {
    const settled = pending.map(() => false);
    for (const [index, promise] of pending.entries()) {
      void promise.then(() => {
        settled[index] = true;
      });
    }
    this.#settled = settled;
  }

  /** Stops watching: the batch is over, or abandoned with tools still at work. */
  dispose(): void {
    this.#run.removeEventListener('abort', this.#onAbort);
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    if (this.#relayed || this.#settled.every(Boolean)) return;
    // A batch a hook's failure abandoned leaves tools running: they still hear a later abort.
    if (this.#run.aborted) this.#relay();
    else this.#run.addEventListener('abort', this.#relay, { once: true });
  }

  readonly #onAbort = (): void => {
    if (isLeaseLost(this.#run.reason)) {
      // The run lost the stream (SPEC WRK-4, WRK-8): it records nothing more, so no outcome is
      // waited for, and a tool about to commit a side effect must hear it before it does.
      this.#finished = [...this.#settled];
      this.#relay();
      return;
    }
    // A timer, not a microtask: it runs only once the results already on their way have arrived.
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#finished = [...this.#settled];
      this.#relay();
    }, 0);
  };

  readonly #relay = (): void => {
    this.#relayed = true;
    this.#tools?.abort(this.#run.reason);
  };
}
