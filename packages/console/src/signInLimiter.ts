/** How many wrong tokens one client may send per window by default. */
export const SIGN_IN_FAILURES = 10;

/** The window the failures are counted over by default: one minute. */
export const SIGN_IN_WINDOW_MS = 60_000;

/**
 * Slows down token guessing: each client (a remote address) may send `maxFailures` wrong tokens
 * within `windowMs` on the `now` clock; then it is refused, whatever token it sends, until its
 * oldest failure in the window is `windowMs` old. A block never outlives the window, so a right
 * token gets in again at most `windowMs` after the last wrong one; a right token clears the
 * client's count. Kept in this process only.
 */
export class SignInLimiter {
  readonly #failures = new Map<string, number[]>();
  readonly #now: () => number;
  readonly #maxFailures: number;
  readonly #windowMs: number;

  constructor(
    now: () => number = Date.now,
    maxFailures = SIGN_IN_FAILURES,
    windowMs = SIGN_IN_WINDOW_MS,
  ) {
    this.#now = now;
    this.#maxFailures = maxFailures;
    this.#windowMs = windowMs;
  }

  /** How many milliseconds `client` must wait before it may try a token again; 0: it may now. */
  waitOf(client: string): number {
    const recent = this.#recent(client);
    if (recent.length < this.#maxFailures) return 0;
    const oldest = recent[recent.length - this.#maxFailures] ?? 0;
    return Math.max(1, oldest + this.#windowMs - this.#now());
  }

  /** Counts a wrong token from `client`. */
  fail(client: string): void {
    if (this.#failures.size > 10_000) this.#sweep();
    const recent = this.#recent(client);
    recent.push(this.#now());
    // Only the last `maxFailures` decide a block.
    this.#failures.set(client, recent.slice(-this.#maxFailures));
  }

  /** A right token from `client`: its count starts again. */
  succeed(client: string): void {
    this.#failures.delete(client);
  }

  #recent(client: string): number[] {
    const since = this.#now() - this.#windowMs;
    const recent = (this.#failures.get(client) ?? []).filter((at) => at > since);
    if (recent.length === 0) this.#failures.delete(client);
    return recent;
  }

  #sweep(): void {
    for (const client of [...this.#failures.keys()]) this.#recent(client);
  }
}
