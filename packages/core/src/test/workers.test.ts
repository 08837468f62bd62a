import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent } from '../agent/agent.js';
import { ToolFeedback } from '../messages/toolFeedback.js';
import type { EventStore } from '../ports/eventStore.js';
import { createInMemoryEventStore } from '../store/inMemoryEventStore.js';
import { approvalRequired } from '../tools/approvalRequired.js';
import { tool } from '../tools/createTool.js';
import { StopWithArgs } from '../tools/stopWithArgs.js';
import { counterIds } from '../testing/fixedClock.js';
import {
  scriptedModel,
  textResponse,
  toolCallResponse,
  type ScriptStep,
} from '../testing/scriptedModel.js';
import { rejection, slowTool } from './testAgent.js';

// RES-4: one writer per run, the worker pattern, and an agent that knows its own run.

const deploy = approvalRequired(
  tool({ name: 'deploy', description: 'd', parameters: z.object({}), execute: () => 'deployed' }),
);

const worker = (store: EventStore, name: string, steps: ScriptStep[]) => {
  const model = scriptedModel(steps);
  const built = Agent.builder()
    .llm(model)
    .tools([StopWithArgs.default(), deploy])
    .store(store)
    .streamId('job')
    .ids(counterIds(name))
    .build();
  return { model, built };
};

/** A store whose appends fail after the first `healthy` ones, until it is healed. */
function outageAfter(inner: EventStore, healthy: number): EventStore & { heal(): void } {
  let appends = 0;
  let down = true;
  return Object.assign(Object.create(inner) as EventStore, {
    appendToStream: (...args: Parameters<EventStore['appendToStream']>) => {
      appends += 1;
      if (down && appends > healthy) return Promise.reject(new Error('connection reset by peer'));
      return inner.appendToStream(...args);
    },
    heal: () => void (down = false),
  });
}

describe('workers', () => {
  it('RES-4 a late worker’s bare run() after the run ended through the stop tool asks no model', async () => {
    const store = createInMemoryEventStore();
    const first = worker(store, 'w1', [
      toolCallResponse([{ name: 'stop', args: { output: 'shipped' }, id: 's1' }]),
    ]);
    const late = worker(store, 'w2', []);
    const a = await first.built;
    const b = await late.built; // built before the first worker finished: it sees nothing yet
    await a.query('ship it');
    expect(b.state().runs).toBe(0);
    expect((await b.refresh()).stopReason?.kind).toBe('requestedByTool');
    const error = await rejection(b.run());
    expect(error.code).toBe('nothingToRun');
    expect(error.message).toContain('the run ended with requestedByTool');
    expect(late.model.requests).toHaveLength(0);
  });

  it('RES-4 a run that ended with a terminal stop goes on with new input', async () => {
    const store = createInMemoryEventStore();
    const { built } = worker(store, 'w1', [
      toolCallResponse([{ name: 'stop', args: { output: 'one' }, id: 's1' }]),
      textResponse('two'),
    ]);
    const agent = await built;
    await agent.query('first');
    await agent.query('second');
    expect(agent.stopReason()).toEqual({ kind: 'noNewMessages' });
  });

  it('RES-4 after a store outage an agent resumes its own run at once; a store fault is storeUnavailable', async () => {
    // The run start is stored; the step's commit and the error stop fail.
    const store = outageAfter(createInMemoryEventStore(), 1);
    const { built } = worker(store, 'w1', [
      toolCallResponse([{ name: 'stop', id: 's1' }]),
      toolCallResponse([{ name: 'stop', id: 's2' }]),
    ]);
    const agent = await built;
    const running = agent.query('go');
    const error = await rejection(running);
    expect(error.code).toBe('storeUnavailable');
    expect(error.message).toContain('connection reset by peer');
    expect((error as { cause?: unknown }).cause).toBeInstanceOf(Error);
    expect(agent.state().status).toBe('running');
    store.heal();
    // The stream says running and its last event is fresh: another agent must wait for the lease,
    // but this one started the run and resumes it now.
    const other = await worker(store, 'w2', []).built;
    await expect(other.run()).rejects.toMatchObject({ code: 'runOwned' });
    await agent.run();
    expect(agent.stopReason()?.kind).toBe('requestedByTool');
  });

  it('RES-4 a run is fenced until its step has ended: a feedback request does not free the stream while a sibling works', async () => {
    const store = createInMemoryEventStore();
    const { tool: slow, release } = slowTool();
    const owner = await Agent.builder()
      .llm(
        scriptedModel([
          toolCallResponse([
            { name: 'deploy', id: 'd1' },
            { name: 'slow', id: 's1' },
          ]),
        ]),
      )
      .tools([deploy, slow])
      .store(store)
      .streamId('job')
      .ids(counterIds('owner'))
      .build();
    const running = owner.query('go');
    await new Promise((resolve) => setTimeout(resolve, 10));
    const second = await worker(store, 'w2', []).built;
    await expect(second.run()).rejects.toMatchObject({ code: 'runOwned' });
    await expect(
      second.context().feedbackReceived({ id: 'd1', name: 'deploy' }, ToolFeedback.approved()),
    ).rejects.toMatchObject({ code: 'invalidFeedback' });
    release();
    await running;
    const types = (await store.readStream('job')).map((event) => event.type);
    expect(types.slice(-4)).toEqual([
      'FeedbackRequested',
      'ToolCallCompleted',
      'WarningRecorded',
      'AgentStopped',
    ]);
    expect(owner.stopReason()?.kind).toBe('feedbackRequired');
  });

  it('HITL-11 pendingFeedback lists no call that already holds a decision', async () => {
    const store = createInMemoryEventStore();
    const agent = await worker(store, 'w1', [toolCallResponse([{ name: 'deploy', id: 'd1' }])])
      .built;
    await agent.query('deploy');
    expect(agent.pendingFeedback().map((call) => call.toolCall.id)).toEqual(['d1']);
    await agent.context().feedbackReceived({ id: 'd1', name: 'deploy' }, ToolFeedback.approved());
    expect(agent.pendingFeedback()).toEqual([]);
  });
});
