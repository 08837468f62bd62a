const brand = Symbol.for('agentlog.error');

/**
 * The base of every error agentlog throws. `code` is a literal per error kind; `isAgentlogError`
 * recognises one across copies of the package (no `instanceof` needed).
 */
export class AgentlogError<C extends string = string> extends Error {
  readonly code: C;
  readonly [brand] = true;

  constructor(code: C, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.name = new.target.name;
  }
}

/** True for any error thrown by agentlog, whichever copy of the package threw it. */
export function isAgentlogError(error: unknown): error is AgentlogError {
  return typeof error === 'object' && error !== null && brand in error;
}
