import type { Agent, AgentEvent } from '@agentlog/core';
import { runWithChannel, type RunChannel } from '@agentlog/core/replay-kit';

/** A caller command found in a recorded stream, ready to be given again. */
export interface ReplayCommand {
  readonly label: string;
  run(agent: Agent): Promise<unknown>;
}

/**
 * The caller command a recorded input event stands for (SPEC RPL-2, RPL-5, EVT-7): a run
 * (`RunStarted`, given `options` with the recording's inputs), a decision, a caller's read of a
 * decision, a summary, a stop request. `undefined` for events the agent appends itself, and for
 * a stop request a hook made (the replayed hook makes it again). Nothing is inferred from what
 * an input caused.
 */
export function commandFor(event: AgentEvent, channel: RunChannel): ReplayCommand | undefined {
  switch (event.type) {
    case 'RunStarted': {
      const { mode, input, worker } = event.data;
      // A worker's run is given again under the same worker, so its RunStarted is the same.
      const runChannel = worker === undefined ? channel : { ...channel, worker };
      // A bare run records a requested run's text as its input: it is given as a bare run again.
      const bare = mode === 'run' || mode === 'runOnce';
      return {
        label: input === undefined || bare ? `${mode}()` : `${mode}(${JSON.stringify(input)})`,
        run: (agent) =>
          agent[runWithChannel](
            mode,
            input === undefined || bare ? undefined : input,
            {},
            runChannel,
          ),
      };
    }
    case 'RunRequested': {
      const { agent: name, input, by } = event.data;
      return {
        label: `requestRun(${JSON.stringify(name)}${input === undefined ? '' : `, ${JSON.stringify(input)}`}${by === undefined ? '' : ` by ${by}`})`,
        run: (agent) =>
          agent.requestRun(name, {
            ...(input === undefined ? {} : { input }),
            ...(by === undefined ? {} : { by }),
          }),
      };
    }
    case 'RunReleased': {
      const { worker, reason } = event.data;
      return {
        label: `releaseRun(${worker.id})`,
        run: (agent) => agent.releaseRun(worker, reason === undefined ? {} : { reason }),
      };
    }
    case 'FeedbackReceived': {
      const { toolCallId, feedback, by, note, scope } = event.data;
      return {
        label: `feedbackReceived(${toolCallId}, ${feedback.kind}${by === undefined ? '' : ` by ${by}`}${scope === undefined ? '' : ` for the ${scope}`})`,
        run: (agent) => {
          const call = agent.state().toolCalls[toolCallId]?.toolCall ?? {
            id: toolCallId,
            name: '',
          };
          return agent.context().feedbackReceived(call, feedback, {
            ...(by === undefined ? {} : { by }),
            ...(note === undefined ? {} : { note }),
            ...(scope === undefined ? {} : { scope }),
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
    case 'StopRequested': {
      const { reason, by, hook } = event.data;
      if (hook !== undefined) return undefined;
      return {
        label: `stop(${JSON.stringify(reason)}${by === undefined ? '' : ` by ${by}`})`,
        run: (agent) => agent.stop(reason, by === undefined ? {} : { by }),
      };
    }
    case 'SystemPromptAdded':
    case 'UserMessageQueued':
    case 'UserMessageAdded':
    case 'ModelResponded':
    case 'AssistantMessageAdded':
    case 'ToolCallStarted':
    case 'ToolCallCompleted':
    case 'ToolCallFailed':
    case 'FeedbackRequested':
    case 'AgentStopped':
    case 'WarningRecorded':
    case 'StreamForked':
      return undefined;
  }
}
