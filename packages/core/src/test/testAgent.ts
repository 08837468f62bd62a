import { z } from 'zod';
import { Agent } from '../agent/agent.js';
import { tool } from '../tools/createTool.js';
import type { Tool } from '../api/tool.js';
import type { AgentBuilder } from '../agent/agentBuilder.js';
import type { EventStore, StreamEvent } from '../ports/eventStore.js';
import { createInMemoryEventStore } from '../store/inMemoryEventStore.js';
import { counterIds, fixedClock } from '../testing/fixedClock.js';
import { scriptedModel, type ScriptStep, type ScriptedModel } from '../testing/scriptedModel.js';

/** What the core's tests work with: an agent on a scripted model, its store, and what it logged. */
export interface TestAgent {
  readonly agent: Agent;
  readonly model: ScriptedModel;
  readonly store: EventStore;
  readonly warnings: string[];
  /** The stored events of the agent's stream. */
  readonly events: () => Promise<StreamEvent[]>;
  /** The stored event types, in order. */
  readonly types: () => Promise<string[]>;
}

/** Builds an agent with fixed clock and ids on an in-memory store (or the given one). */
export async function testAgent(
  steps: readonly ScriptStep[],
  configure: (builder: AgentBuilder) => AgentBuilder = (builder) => builder,
  options: { store?: EventStore; streamId?: string } = {},
): Promise<TestAgent> {
  const model = scriptedModel(steps);
  const store = options.store ?? createInMemoryEventStore();
  const warnings: string[] = [];
  const builder = Agent.builder()
    .llm(model)
    .store(store)
    .streamId(options.streamId ?? 'test')
    .clock(fixedClock())
    .ids(counterIds())
    .logger({ warn: (message) => warnings.push(message) });
  const agent = await configure(builder).build();
  const events = (): Promise<StreamEvent[]> => store.readStream(agent.streamId);
  return {
    agent,
    model,
    store,
    warnings,
    events,
    types: async () => (await events()).map((event) => event.type),
  };
}

/** Collects what a promise rejected with, failing if it resolved. */
export async function rejection(promise: Promise<unknown>): Promise<Error & { code?: string }> {
  try {
    await promise;
  } catch (error) {
    return error as Error & { code?: string };
  }
  throw new Error('expected the promise to reject, but it resolved');
}

/** A tool named `slow` that waits until `release()` is called: a tool still at work. */
export function slowTool(): { readonly tool: Tool; readonly release: () => void } {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  return {
    tool: tool({
      name: 'slow',
      description: 'works until released',
      parameters: z.object({}),
      execute: async () => {
        await released;
        return 'slow done';
      },
    }),
    release: () => release(),
  };
}
