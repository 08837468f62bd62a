import type { ToolResult } from './hooks.js';
import type { AgentContext } from './agentContext.js';
import type { PendingEvent, WorkerIdentity } from '../events/agentEvent.js';
import type { ToolCall } from '../messages/toolCall.js';

/**
 * How a batch gets a tool's own result: by running the tool (the default), or, in a replay, from
 * the recording (SPEC RPL-5). It never throws: a failure is a result.
 */
export type ToolRunner = (
  toolCall: ToolCall,
  context: AgentContext,
  /** The stream revision of the batch's starts. */
  at: { readonly revision: number },
) => Promise<ToolResult>;

/**
 * What a replay's run takes in before each decision (SPEC RPL-5, EVT-7): the events the recording
 * holds at `revision` and after it that others wrote during the run (decisions, stop requests),
 * or none. Each is given once. `moment` says where the run is: deciding its next step, or
 * recording an effect's outcome.
 */
export type RecordedInputs = (revision: number, moment: InputMoment) => readonly PendingEvent[];

/** Where a run takes in recorded inputs (see {@link RecordedInputs}). */
export type InputMoment = 'decision' | 'outcome';

/** What the caller gives a run (SPEC LOOP-10): an abort signal, and a callback per text delta. */
export interface RunOptions {
  /** Aborts the run (SPEC LOOP-10): it stops with cause `aborted` and can be resumed. */
  readonly signal?: AbortSignal;
  /** Each text delta of a streamed answer, as it arrives; chunks are not events. */
  readonly onTextDelta?: (delta: string, context: TextDeltaContext) => void;
}

/**
 * The key of an agent's run with a {@link RunChannel}: agentlog's worker and replay call
 * `agent[runWithChannel](mode, input, options, channel)`. Not exported at the package root.
 */
export const runWithChannel: unique symbol = Symbol.for('agentlog.runWithChannel');

/**
 * What only agentlog's own worker and replay give a run, beside the caller's options; never part
 * of `RunOptions`, so no caller can set it by accident.
 */
export interface RunChannel {
  /** In a replay: what the recording says others wrote during the run (SPEC RPL-5). */
  readonly recordedInputs?: RecordedInputs;
  /** The worker that takes the run, recorded in its `RunStarted` (SPEC WRK-7) and owning its claim. */
  readonly worker?: WorkerIdentity;
}

/** Where a text delta belongs. */
export interface TextDeltaContext {
  readonly streamId: string;
  /** The completion's number in this run, from 1. */
  readonly completion: number;
}
