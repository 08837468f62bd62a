/**
 * Where warnings go (SPEC HITL-5, LOOP-5): the agent's logger, `console` by default. The loop
 * also hands it to the model with each call, so a model can report what the caller would not see
 * otherwise, such as a retried request.
 */
export interface Logger {
  warn(message: string, details?: Record<string, unknown>): void;
}
