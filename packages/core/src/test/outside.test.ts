import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent } from '../agent/agent.js';
import { pendingDecisions } from '../readModels/pendingDecisions.js';
import { recordDecision } from '../commands/recordDecision.js';
import { requestStop } from '../commands/requestStop.js';
import { ToolFeedback } from '../messages/toolFeedback.js';
import type { EventStore } from '../ports/eventStore.js';
import { createInMemoryEventStore } from '../store/inMemoryEventStore.js';
import { approvalRequired } from '../tools/approvalRequired.js';
import { tool } from '../tools/createTool.js';
import { counterIds } from '../testing/fixedClock.js';
import { scriptedModel, textResponse, toolCallResponse } from '../testing/scriptedModel.js';
import { rejection, slowTool } from './testAgent.js';

// HITL-12: decisions and stops from outside the agent, on a store alone.

const runs: string[] = [];
const deploy = approvalRequired(
  tool({
    name: 'deploy',
    description: 'd',
    parameters: z.object({}),
    execute: () => {
      runs.push('deploy');
      return 'deployed';
    },
  }),
);

async function waiting(store: EventStore, streamId: string) {
  const agent = await Agent.builder()
    .llm(scriptedModel([toolCallResponse([{ name: 'deploy', id: 'd1' }]), textResponse('done')]))
    .tools([deploy])
    .store(store)
    .streamId(streamId)
    .ids(counterIds(streamId))
    .build();
  await agent.query('deploy');
  return agent;
}

describe('decisions and stops without an agent', () => {
  it('HITL-3 HITL-12 of two decisions racing for one call, one is recorded and the other gets invalidFeedback', async () => {
    const store = createInMemoryEventStore();
    await waiting(store, 'race');
    const outcomes = await Promise.allSettled([
      recordDecision(store, 'race', 'd1', ToolFeedback.approved(), { by: 'ana' }),
      recordDecision(store, 'race', 'd1', ToolFeedback.refused(), { by: 'bo' }),
    ]);
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
    const lost = outcomes.find((outcome) => outcome.status === 'rejected');
    expect((lost as PromiseRejectedResult).reason).toMatchObject({
      code: 'invalidFeedback',
      message: expect.stringMatching(/a decision was already given/) as unknown,
    });
    const decisions = (await store.readStream('race')).filter(
      (event) => event.type === 'FeedbackReceived',
    );
    expect(decisions).toHaveLength(1);
  });

  it('HITL-12 recordDecision and pendingDecisions work on a store alone; the waiting run applies the decision', async () => {
    const store = createInMemoryEventStore();
    const first = await waiting(store, 'one');
    await waiting(store, 'two');
    expect(
      (await pendingDecisions(store)).map((call) => `${call.streamId}/${call.toolCall.id}`),
    ).toEqual(['one/d1', 'two/d1']);
    await recordDecision(store, 'one', 'd1', ToolFeedback.approved(), { by: 'ana', note: 'ok' });
    expect((await pendingDecisions(store)).map((call) => call.streamId)).toEqual(['two']);
    expect(await pendingDecisions(store, { streamIds: ['one'] })).toEqual([]);
    const stored = await store.readStream('one');
    expect(stored.at(-1)).toMatchObject({
      type: 'FeedbackReceived',
      data: { toolCallId: 'd1', feedback: { kind: 'approved' }, by: 'ana', note: 'ok' },
    });
    await first.run();
    expect(first.stopReason()?.kind).toBe('noNewMessages');
  });

  it('HITL-12 a decision for a call that does not wait is refused, and nothing is written', async () => {
    const store = createInMemoryEventStore();
    await waiting(store, 'one');
    const before = (await store.readStream('one')).length;
    const error = await rejection(recordDecision(store, 'one', 'nope', ToolFeedback.approved()));
    expect(error.code).toBe('invalidFeedback');
    expect(error.message).toContain('the model never made this call');
    await recordDecision(store, 'one', 'd1', ToolFeedback.refused());
    await expect(recordDecision(store, 'one', 'd1', ToolFeedback.approved())).rejects.toMatchObject(
      {
        code: 'invalidFeedback',
      },
    );
    expect((await store.readStream('one')).length).toBe(before + 1);
  });

  it('HITL-12 requestStop on a stream that is not running is refused and writes nothing', async () => {
    const store = createInMemoryEventStore();
    await waiting(store, 'one');
    const before = (await store.readStream('one')).length;
    const error = await rejection(requestStop(store, 'one', { reason: 'halt', by: 'ops' }));
    expect(error.code).toBe('notRunning');
    expect(error.message).toContain('has no run in progress to stop');
    expect((await store.readStream('one')).length).toBe(before);
  });

  it('HITL-12 a live run honours a stop request at its next step boundary and records who asked', async () => {
    const store = createInMemoryEventStore();
    const { tool: slow, release } = slowTool();
    const model = scriptedModel([
      toolCallResponse([{ name: 'slow', id: 's1' }]),
      textResponse('never'),
    ]);
    const agent = await Agent.builder()
      .llm(model)
      .tools([slow])
      .store(store)
      .streamId('live')
      .build();
    const running = agent.query('go');
    await new Promise((resolve) => setTimeout(resolve, 10));
    await requestStop(store, 'live', { reason: 'maintenance window', by: 'ops' });
    release();
    await running;
    expect(agent.stopReason()).toEqual({ kind: 'other', text: 'maintenance window' });
    expect(model.requests).toHaveLength(1);
    const last = (await store.readStream('live')).at(-1);
    expect(last?.data).toEqual({
      reason: { kind: 'other', text: 'maintenance window' },
      cause: 'stoppedByCaller',
      by: 'ops',
    });
  });
});
