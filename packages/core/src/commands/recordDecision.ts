import type { FeedbackAuthor } from '../api/agentContext.js';
import type { ToolFeedback } from '../messages/toolFeedback.js';
import type { EventStore } from '../ports/eventStore.js';
import { giveCommand, type CommandResult, type OutsideOptions } from './giveCommand.js';

/**
 * Records a person's decision on a call that waits for one, without building an agent (SPEC
 * HITL-12): for a web handler or the CLI. A call that does not wait (never made, in flight,
 * answered, already decided) is refused with `invalidFeedback` and nothing is written. The
 * decision is a durable commit; the run that waits applies it when it is run again.
 * Returns what it appended and the new state.
 */
export async function recordDecision(
  store: EventStore,
  streamId: string,
  toolCallId: string,
  feedback: ToolFeedback,
  author: FeedbackAuthor & OutsideOptions = {},
): Promise<CommandResult> {
  const { by, note, scope, ...options } = author;
  return giveCommand(
    store,
    streamId,
    { kind: 'recordDecision', toolCallId, feedback, by, note, scope },
    { ...options, durable: true },
  );
}
