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
  /**
   * Aborts the run (SPEC LOOP-10). Aborted with a `ConcurrencyError` as its reason, it says the
   * run's lease is lost (SPEC WRK-4): the run then appends nothing more, not even its stop.
   */
  readonly signal?: AbortSignal;
  /** Each text delta of a streamed answer, as it arrives; chunks are not events. */
  readonly onTextDelta?: (delta: string, context: TextDeltaContext) => void;
  /** In a replay: what the recording says others wrote during the run (SPEC RPL-5). */
  readonly recordedInputs?: RecordedInputs;
  /** The worker that takes the run, recorded in its `RunStarted` (SPEC WRK-7). */
  readonly worker?: WorkerIdentity;
  /**
   * The store judged, on its own clock, that the lease of the run in progress lapsed (SPEC
   * WRK-4): the run counts as crashed and is resumed, whatever this process's clock says.
   */
  readonly leaseLapsed?: boolean;
}

/** Where a text delta belongs. */
export interface TextDeltaContext {
  readonly streamId: string;
  /** The completion's number in this run, from 1. */
  readonly completion: number;
}
