import {
  Agent,
  createInMemoryEventStore,
  tool,
  type AgentBuilder,
  type StreamEvent,
} from '@agentlog/core';
import {
  counterIds,
  fixedClock,
  scriptedModel,
  textResponse,
  toolCallResponse,
} from '@agentlog/core/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { replayStream } from './replayStream.js';

// RPL-5 EVT-7: replay is a fold of recorded inputs; a stop request is one of them.

const echo = tool({
  name: 'echo',
  description: 'e',
  parameters: z.object({ text: z.string() }),
  execute: ({ text }) => text,
});
const factory = (): AgentBuilder => Agent.builder().tools([echo]);

/** Records a run in which the caller stops the agent while the model answers its first request. */
async function recordCallerStop(): Promise<StreamEvent[]> {
  const store = createInMemoryEventStore();
  const late: { agent?: Agent } = {};
  const model = scriptedModel([
    async () => {
      await late.agent?.stop('stop button', { by: 'ana' });
      return toolCallResponse([{ name: 'echo', args: { text: 'a' }, id: 'e1' }]);
    },
    textResponse('never'),
  ]);
  const agent = await factory()
    .llm(model)
    .store(store)
    .streamId('stopped')
    .clock(fixedClock())
    .ids(counterIds('rec'))
    .build();
  late.agent = agent;
  await agent.query('go');
  return store.readStream('stopped');
}

describe('replay of recorded inputs', () => {
  it('EVT-7 RPL-5 a caller’s stop during a run is recorded where it was asked for, and replays from the recording alone', async () => {
    const recorded = await recordCallerStop();
    const types = recorded.map((event) => event.type);
    const request = types.indexOf('StopRequested');
    // Asked while the model answered: before the answer, and well before the stop it causes.
    expect(types.slice(request, request + 2)).toEqual(['StopRequested', 'ModelResponded']);
    expect(recorded[request]?.data).toEqual({ reason: 'stop button', by: 'ana' });
    expect(recorded.at(-1)?.data).toMatchObject({
      reason: { kind: 'other', text: 'stop button' },
      cause: 'stoppedByCaller',
      by: 'ana',
    });
    const result = await replayStream(recorded, { agent: factory });
    expect(result.ok, result.ok ? '' : result.divergence.message).toBe(true);
    expect(result.events.map((event) => event.type)).toEqual(types);
  });

  it('EVT-5 EVT-7 RPL-5 an old stream without StopRequested still replays through the upcaster', async () => {
    const recorded = await recordCallerStop();
    // The same run as schema version 3 wrote it: no StopRequested, the stop at the step's end.
    const old = recorded
      .filter((event) => event.type !== 'StopRequested')
      .map((event, revision) => ({
        ...event,
        data:
          event.type === 'AgentStopped'
            ? { reason: { kind: 'other', text: 'stop button' }, cause: 'stoppedByCaller' }
            : event.data,
        metadata: { ...event.metadata, revision, schemaVersion: 3 },
      }));
    expect(old.some((event) => event.type === 'StopRequested')).toBe(false);
    const result = await replayStream(old, { agent: factory });
    expect(result.ok, result.ok ? '' : result.divergence.message).toBe(true);
    // Replayed today, the request comes first: where the recorded run honoured it.
    expect(result.events.map((event) => event.type).slice(-2)).toEqual([
      'StopRequested',
      'AgentStopped',
    ]);
  });

  it('RPL-5 a replay that meets a recorded stop request the run does not reach reports a divergence', async () => {
    const recorded = await recordCallerStop();
    const request = recorded.findIndex((event) => event.type === 'StopRequested');
    // The same recording, with the request moved out of the run: the replayed run is not stopped.
    const moved = recorded.filter((_, index) => index !== request);
    const renumbered = moved.map((event, revision) => ({
      ...event,
      metadata: { ...event.metadata, revision },
    }));
    const result = await replayStream(renumbered, { agent: factory });
    expect(result.ok).toBe(false);
  });
});
