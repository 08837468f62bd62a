import type { Observable } from 'rxjs';
import type { AgentContext } from './agentContext.js';
import type { AgentEvent } from '../events/agentEvent.js';
import type { AgentState } from '../events/agentState.js';
import type { StopReason } from '../events/stopReason.js';
import type { ChatMessage } from '../messages/chatMessage.js';

/**
 * What a hook gets of its agent (SPEC LOOP-9): the stream, the state and stop reason, the history,
 * the context, and a stop request. A stop asked for during a run lands when the current step ends (SPEC
 * STOP-9); the hook cannot start a run.
 */
export interface AgentHandle {
  readonly streamId: string;
  /** The events this agent appends, as they are stored. */
  readonly events$: Observable<AgentEvent>;
  /** The fold of the stream, with the events this step holds back. */
  state(): AgentState;
  /** Why the agent stopped; `undefined` while it is pending or running (SPEC STOP-6). */
  stopReason(): StopReason | undefined;
  /** The whole history, summaries included. */
  history(): readonly ChatMessage[];
  /** Feedback and history access (SPEC HITL-3). */
  context(): AgentContext;
  /** Asks the agent to stop with `other(text)`; once stopped it does nothing (SPEC STOP-7). */
  stop(text?: string): Promise<void>;
}
