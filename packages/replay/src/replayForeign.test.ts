import {
  Agent,
  approvalRequired,
  createInMemoryEventStore,
  recordDecision,
  requestStop,
  tool,
  ToolFeedback,
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

// What other processes wrote during a recorded run is written again where it was (RPL-2, HITL-12).

let release: () => void = () => undefined;
const slow = tool({
  name: 'slow',
  description: 's',
  parameters: z.object({}),
  execute: async () => {
    await new Promise<void>((resolve) => (release = resolve));
    return 'slow done';
  },
});
const gate = approvalRequired(
  tool({ name: 'gate', description: 'g', parameters: z.object({}), execute: () => 'gated' }),
);
const factory = (): AgentBuilder => Agent.builder().tools([slow, gate]);

async function recordWith(
  during: (store: ReturnType<typeof createInMemoryEventStore>) => Promise<unknown>,
  steps = [toolCallResponse([{ name: 'slow', id: 's1' }]), textResponse('never')],
): Promise<StreamEvent[]> {
  const store = createInMemoryEventStore();
  const agent = await factory()
    .llm(scriptedModel(steps))
    .store(store)
    .streamId('foreign')
    .clock(fixedClock())
    .ids(counterIds('rec'))
    .build();
  const running = agent.query('go');
  await new Promise((resolve) => setTimeout(resolve, 10));
  await during(store);
  release();
  await running.catch(() => undefined);
  return store.readStream('foreign');
}

describe('replay of writes from other processes', () => {
  it('RPL-2 HITL-12 a stop another process requested during the recorded run is met again where it was', async () => {
    const events = await recordWith((store) =>
      requestStop(store, 'foreign', {
        reason: 'halt',
        by: 'ops',
        clock: fixedClock('2026-06-01T00:00:00.000Z'),
      }),
    );
    expect(events.map((event) => event.type)).toContain('StopRequested');
    for (const tools of ['recorded', 'live'] as const) {
      const pending = replayStream(events, { agent: factory, tools });
      // A live slow tool waits for its release.
      setTimeout(() => release(), 20);
      const result = await pending;
      expect(result.ok, result.ok ? '' : result.divergence.message).toBe(true);
    }
  });

  it('RPL-2 HITL-12 a decision another process recorded during the recorded run is met again where it was', async () => {
    const first = await recordWith(
      () => Promise.resolve(),
      [
        toolCallResponse([
          { name: 'gate', id: 'g1' },
          { name: 'slow', id: 's0' },
        ]),
        toolCallResponse([{ name: 'slow', id: 's1' }]),
        textResponse('done'),
      ],
    );
    expect(first.map((event) => event.type)).toContain('WarningRecorded');
    // The shadowed gate waits; a second run is recorded while a reviewer decides on it.
    const store = createInMemoryEventStore();
    await store.appendToStream(
      'foreign',
      first.map(({ type, data, metadata: { revision: _r, ...metadata } }) => ({
        type,
        data,
        metadata,
      })),
      { expectedRevision: 'noStream' },
    );
    const agent = await factory()
      .llm(scriptedModel([toolCallResponse([{ name: 'slow', id: 's2' }]), textResponse('done')]))
      .store(store)
      .streamId('foreign')
      .clock(fixedClock('2026-02-01T00:00:00.000Z'))
      .ids(counterIds('rec2'))
      .build();
    const running = agent.query('again');
    await new Promise((resolve) => setTimeout(resolve, 10));
    await recordDecision(store, 'foreign', 'g1', ToolFeedback.approved(), {
      by: 'ana',
      clock: fixedClock('2026-06-01T00:00:00.000Z'),
    });
    release();
    await running;
    const events = await store.readStream('foreign');
    const result = await replayStream(events, { agent: factory });
    expect(result.ok, result.ok ? '' : result.divergence.message).toBe(true);
  });
});
