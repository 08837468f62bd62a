import type { Agent, AgentEvent } from '@agentlog/core';

/** A caller command found in a recorded stream, ready to be given again. */
export interface ReplayCommand {
  readonly label: string;
  run(agent: Agent): Promise<unknown>;
}

/**
 * The caller command that produced `event`, for events that only a caller appends: a run
 * (`RunStarted`), a decision, a summary, a caller's read of a decision, a manual stop (SPEC RPL-2).
 * `undefined` for events the agent appends itself.
 */
export function commandFor(event: AgentEvent): ReplayCommand | undefined {
  switch (event.type) {
    case 'RunStarted': {
      const { mode, input } = event.data;
      return {
        label: input === undefined ? `${mode}()` : `${mode}(${JSON.stringify(input)})`,
        run: (agent) =>
          input === undefined
            ? agent[mode === 'runOnce' ? 'runOnce' : 'run']()
            : agent[mode === 'queryOnce' ? 'queryOnce' : 'query'](input),
      };
    }
    case 'FeedbackReceived': {
      const { toolCallId, feedback, by, note } = event.data;
      return {
        label: `feedbackReceived(${toolCallId}, ${feedback.kind}${by === undefined ? '' : ` by ${by}`})`,
        run: (agent) => {
          const call = agent.state().toolCalls[toolCallId]?.toolCall ?? {
            id: toolCallId,
            name: '',
          };
          return agent.context().feedbackReceived(call, feedback, {
            ...(by === undefined ? {} : { by }),
            ...(note === undefined ? {} : { note }),
          });
        },
      };
    }
    case 'FeedbackConsumed':
      return {
        label: `hasReceivedFeedback(${event.data.toolCallId})`,
        run: (agent) =>
          agent.context().hasReceivedFeedback({ id: event.data.toolCallId, name: '' }),
      };
    case 'SummaryAdded':
      return { label: 'addSummary(…)', run: (agent) => agent.addSummary(event.data.text) };
    case 'AgentStopped':
      // A stop a hook asked for comes from the replayed hook itself.
      if (
        event.data.cause !== 'stoppedByCaller' ||
        event.data.reason.kind !== 'other' ||
        event.data.hook !== undefined
      )
        return undefined;
      return {
        label: `stop(${JSON.stringify(event.data.reason.text)})`,
        run: (agent) =>
          agent.stop(event.data.reason.kind === 'other' ? event.data.reason.text : undefined),
      };
    default:
      return undefined;
  }
}
