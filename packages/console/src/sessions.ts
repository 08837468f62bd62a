import { randomBytes, timingSafeEqual } from 'node:crypto';

/** A signed-in reviewer's session: who, the CSRF token of its forms, and when it ends. */
export interface Session {
  readonly id: string;
  readonly reviewer: string;
  readonly csrf: string;
  readonly expiresAt: number;
}

/** How long a session lasts by default: eight hours. */
export const SESSION_LIFETIME_MS = 8 * 60 * 60 * 1000;

const randomId = (): string => randomBytes(32).toString('base64url');

/**
 * The console's sessions, kept in this process only (a restart signs everyone out): random ids
 * (256 bits), each with its own CSRF token, ending after `lifetimeMs` on the `now` clock.
 */
export class Sessions {
  readonly #sessions = new Map<string, Session>();
  readonly #now: () => number;
  readonly #lifetimeMs: number;

  constructor(now: () => number = Date.now, lifetimeMs = SESSION_LIFETIME_MS) {
    this.#now = now;
    this.#lifetimeMs = lifetimeMs;
  }

  /** Opens a session for `reviewer`. */
  open(reviewer: string): Session {
    this.#sweep();
    const session = {
      id: randomId(),
      reviewer,
      csrf: randomId(),
      expiresAt: this.#now() + this.#lifetimeMs,
    };
    this.#sessions.set(session.id, session);
    return session;
  }

  /** The live session of `id`, or `undefined` (unknown or expired). */
  get(id: string | undefined): Session | undefined {
    if (id === undefined) return undefined;
    const session = this.#sessions.get(id);
    if (session === undefined) return undefined;
    if (session.expiresAt <= this.#now()) {
      this.#sessions.delete(id);
      return undefined;
    }
    return session;
  }

  /** Ends the session `id` (signing out). */
  close(id: string): void {
    this.#sessions.delete(id);
  }

  #sweep(): void {
    const now = this.#now();
    for (const [id, session] of this.#sessions)
      if (session.expiresAt <= now) this.#sessions.delete(id);
  }
}

/** Whether `given` is `session`'s CSRF token, compared in constant time. */
export function csrfMatches(session: Session, given: unknown): boolean {
  if (typeof given !== 'string') return false;
  const expected = Buffer.from(session.csrf);
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
