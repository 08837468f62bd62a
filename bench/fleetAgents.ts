import {
  Agent,
  approvalRequired,
  tool,
  type ChatCompletion,
  type CompletionRequest,
  type CompletionResponse,
  type WorkerAgents,
} from '@agentlog/core';
import { z } from 'zod';

/** The agent name of the fleet's plain runs and of its approval-gated runs. */
export const fleetAgentNames = { plain: 'fleet', gated: 'gated' } as const;

/** Tool calls a plain run makes before its final text: with it, 10 steps. */
export const fleetToolCalls = 9;

/** How long the scripted model takes to answer, like a fast model behind a network. */
const modelDelayMs = 20;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** How many tool outputs the request holds: the model's place in its run, whoever built it. */
function toolOutputs(request: CompletionRequest): number {
  let count = 0;
  for (const message of request.messages) if (message.role === 'tool') count += 1;
  return count;
}

/**
 * The fleet's scripted model: after `modelDelayMs` it asks for `toolName` until the run holds
 * `calls` tool outputs, then answers "done". It keeps no state, so a worker that builds the agent
 * again (after a decision) gets the same answers; `onCall` counts the steps.
 */
export function fleetModel(toolName: string, calls: number, onCall: () => void): ChatCompletion {
  return {
    async complete(request: CompletionRequest): Promise<CompletionResponse> {
      onCall();
      await sleep(modelDelayMs);
      const done = toolOutputs(request);
      if (done >= calls) return { message: 'done', toolCalls: [] };
      return { toolCalls: [{ id: `call-${done + 1}`, name: toolName, args: '{}' }] };
    },
  };
}

const ping = tool({
  name: 'ping',
  description: 'Answers pong.',
  parameters: z.object({}),
  execute: () => 'pong',
});

const deploy = approvalRequired(
  tool({
    name: 'deploy',
    description: 'Deploys, once a person approved.',
    parameters: z.object({}),
    execute: () => 'deployed',
  }),
);

/** A builder of the plain fleet agent (10 steps of `ping`), quiet. */
export function plainFleetAgent(onCall: () => void): ReturnType<typeof Agent.builder> {
  return Agent.builder()
    .llm(fleetModel('ping', fleetToolCalls, onCall))
    .tools([ping])
    .logger({ warn: () => undefined });
}

/**
 * The agents a fleet worker runs: the plain one, and the approval-gated one (one `deploy` call
 * that waits for a person, then "done").
 */
export function fleetAgents(onCall: () => void): WorkerAgents {
  return {
    [fleetAgentNames.plain]: () => plainFleetAgent(onCall),
    [fleetAgentNames.gated]: () =>
      Agent.builder()
        .llm(fleetModel('deploy', 1, onCall))
        .tools([deploy])
        .logger({ warn: () => undefined }),
  };
}
