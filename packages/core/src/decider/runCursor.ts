import type { ApprovalVerdict, HookKind, RunMode, WorkerIdentity } from '../events/agentEvent.js';
import type { StopRequest } from '../events/agentState.js';
import type { StopCause, StopReason } from '../events/stopReason.js';
import type { ToolCall } from '../messages/toolCall.js';

/** A stop that the current step will record when it ends (SPEC STOP-7, STOP-9). */
export interface StopCandidate {
  readonly reason: StopReason;
  readonly cause: StopCause;
  /** The hook that asked for the stop, when one did. */
  readonly hook?: HookKind;
  /** Who asked for the stop from outside the run (`StopRequested.by`). */
  readonly by?: string;
  /**
   * The revision of the event that made the stop known: of two stops in one step, the one
   * recorded first wins (SPEC STOP-7), whether it came from an outcome or a `StopRequested`.
   */
  readonly at?: number;
}

/** The command a run was started with: what its first step records (SPEC LOOP-2). */
export interface RunCommand {
  readonly mode: RunMode;
  readonly input?: string;
  /** The worker that takes the run, recorded in its `RunStarted` (SPEC WRK-7). */
  readonly worker?: WorkerIdentity;
}

/**
 * Where the interpreter is inside one run: its program counter, never agent state. It is not
 * stored: a run that dies with its process is resumed by a new run, which starts from
 * {@link startCursor}. Everything the decider decides beyond this position comes from the fold.
 */
export interface RunCursor {
  /**
   * `start` is SPEC LOOP-2 (2)–(3) (beforeAll on the first run, the command's events); `setup`
   * is (4)–(6); `step` is the loop of completion steps.
   */
  readonly phase: 'start' | 'setup' | 'step';
  /** In `start`: the command being started. */
  readonly command?: RunCommand;
  /** In `start`: `beforeAll` has fired. */
  readonly hooked?: boolean;
  /** In a step: what the run holds back must be written before the step decides (its lease). */
  readonly write?: boolean;
  /** In a step: the model has answered. */
  readonly asked: boolean;
  /**
   * The verdicts of the gates' conditions on the calls of the batch about to start, by call id
   * (SPEC HITL-13): judged by the interpreter, recorded with the starts.
   */
  readonly verdicts?: ReadonlyMap<string, ApprovalVerdict>;
  /** The calls this setup or step invoked; `undefined` until its batch ran. */
  readonly invoked?: readonly ToolCall[];
  /** The first stop of this setup or step that an outcome asked for: it lands when it ends. */
  readonly stop?: StopCandidate;
}

/** The cursor at the start of a run given `command`. */
export function startCursor(command: RunCommand): RunCursor {
  return { phase: 'start', asked: false, command };
}

/** The cursor once the run's command is recorded: SPEC LOOP-2 (4) onwards. */
export const setupCursor: RunCursor = Object.freeze({ phase: 'setup', asked: false });

/**
 * The cursor at the top of the loop, between steps: the step first writes what it holds back. A
 * stop not yet recorded is kept.
 */
export function betweenSteps(cursor: RunCursor): RunCursor {
  return cursor.stop === undefined
    ? topOfLoop
    : { phase: 'step', asked: false, write: true, stop: cursor.stop };
}

const topOfLoop: RunCursor = Object.freeze({ phase: 'step', asked: false, write: true });

/** The cursor once what the step held back is written. */
export function written(cursor: RunCursor): RunCursor {
  const { write: _write, ...rest } = cursor;
  return rest;
}

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

/**
 * The stop that lands when a step ends (SPEC STOP-7, EVT-7): of the stop an outcome asked for and
 * the stop request the stream holds, the one recorded first.
 */
export function firstStop(
  stop: StopCandidate | undefined,
  request: StopRequest | undefined,
): StopCandidate | undefined {
  if (request === undefined) return stop;
  if (stop !== undefined && stop.at !== undefined && stop.at < request.revision) return stop;
  return callerStop(request.reason, { hook: request.hook, by: request.by });
}
