import { Agent, createInMemoryEventStore, decodeEvent, type AgentEvent } from '@agentlog/core';
import { counterIds, fixedClock } from '@agentlog/core/testing';
import { pingModel } from './pingModel.js';
import { pingTool } from './pingTool.js';

/**
 * A realistic valid stream to synthesise long ones from: a real ping run of `steps` steps on
 * `streamId`, with a fixed clock and counter ids, read back from the store and decoded.
 */
export async function templateEvents(streamId: string, steps = 300): Promise<AgentEvent[]> {
  const store = createInMemoryEventStore();
  const agent = await Agent.builder()
    .llm(pingModel(steps, 'tmpl'))
    .tools([pingTool().tool])
    .store(store)
    .streamId(streamId)
    .clock(fixedClock('2026-01-01T00:00:00.000Z', 1))
    .ids(counterIds('tmpl'))
    .build();
  await agent.query('go');
  return (await store.readStream(streamId)).map(decodeEvent);
}
