import type { AgentEvent } from '../events/agentEvent.js';
import type { AgentState } from '../events/agentState.js';

/** A stream read and folded for display: its id, where it came from, its events and its state. */
export interface FoldedStream {
  readonly streamId: string;
  /** The JSONL file, or the store, the stream was read from (for the reader, not a key). */
  readonly source: string;
  readonly events: AgentEvent[];
  readonly state: AgentState;
}
