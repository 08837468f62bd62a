import type { StopCause, StopReason } from '../events/stopReason.js';
import type { HookKind } from '../loop/hooks.js';
import type { ToolCall } from '../messages/toolCall.js';

/** A stop that the current step will record when it ends (SPEC STOP-7, STOP-9). */
export interface StopCandidate {
  readonly reason: StopReason;
  readonly cause: StopCause;
  /** The hook that asked for the stop, when one did. */
  readonly hook?: HookKind;
  /** Who asked for the stop from outside the run (`StopRequested.by`). */
  readonly by?: string;
}

/**
 * Where the interpreter is inside one run: its program counter, never agent state. It is not
 * stored: a run that dies with its process is resumed by a new run, which starts from
 * {@link setupCursor}. Everything the decider decides beyond this position comes from the fold.
 */
export interface RunCursor {
  /** `setup` is SPEC LOOP-2 (1)–(6); `step` is the loop of completion steps. */
  readonly phase: 'setup' | 'step';
  /** In a step: the model has answered. */
  readonly asked: boolean;
  /** The calls this setup or step invoked; `undefined` until its batch ran. */
  readonly invoked?: readonly ToolCall[];
  /** The first stop of this setup or step: it lands when the setup or step ends. */
  readonly stop?: StopCandidate;
}

/** The cursor at the start of a run. */
export const setupCursor: RunCursor = { phase: 'setup', asked: false };

/** The cursor at the top of the loop, between steps; a stop not yet recorded is kept. */
export function betweenSteps(cursor: RunCursor): RunCursor {
  return cursor.stop === undefined ? topOfLoop : { phase: 'step', asked: false, stop: cursor.stop };
}

const topOfLoop: RunCursor = Object.freeze({ phase: 'step', asked: false });

/** The cursor once the first stop of a step is known: a later one does not replace it (SPEC STOP-7). */
export function withStop(cursor: RunCursor, stop: StopCandidate): RunCursor {
  return cursor.stop === undefined ? { ...cursor, stop } : cursor;
}

/** The stop a caller asks for (SPEC STOP-9, HITL-12): `other(text)`, naming the hook or who asked. */
export function callerStop(
  text: string,
  who: { readonly hook?: HookKind | undefined; readonly by?: string | undefined } = {},
): StopCandidate {
  return {
    reason: { kind: 'other', text },
    cause: 'stoppedByCaller',
    ...(who.hook === undefined ? {} : { hook: who.hook }),
    ...(who.by === undefined ? {} : { by: who.by }),
  };
}
