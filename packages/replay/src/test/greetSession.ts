import {
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
import { z } from 'zod';

/** A tool that answers `hi`. */
export const greet = tool({
  name: 'greet',
  description: 'Says hi.',
  parameters: z.object({}),
  execute: () => 'hi',
});

/**
 * Records one session of `builder` (which has {@link greet} among its tools) as stream
 * `streamId` of an in-memory store: the user says `greet`, the model calls it (`g1`), then
 * answers `done`. Returns the recorded events.
 */
export async function recordGreeting(
  builder: AgentBuilder,
  streamId: string,
): Promise<StreamEvent[]> {
  const store = createInMemoryEventStore();
  const agent = await builder
    .llm(scriptedModel([toolCallResponse([{ name: 'greet', id: 'g1' }]), textResponse('done')]))
    .store(store)
    .streamId(streamId)
    .clock(fixedClock())
    .ids(counterIds('rec'))
    .build();
  await agent.query('greet');
  return store.readStream(streamId);
}
