import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Tool } from '../api/tool.js';
import type { AppendOptions, EventStore, StreamEvent } from '../ports/eventStore.js';
import { createInMemoryEventStore } from '../store/inMemoryEventStore.js';
import { textResponse, toolCallResponse } from '../testing/scriptedModel.js';
import { counterIds, fixedClock } from '../testing/fixedClock.js';
import { tool } from '../tools/createTool.js';
import { rejection, testAgent } from './testAgent.js';

// LOOP-10 with TOOL-7 and WRK-5: when the signal aborts while a batch runs, every call that had
// finished keeps its outcome, whatever order the tools settle in; only the calls the abort cut
// off stay started, and resuming follows TOOL-7 for them alone.

/** Every tool invocation, by name, across the run and its resumption. */
type Invocations = string[];

/**
 * Aborts the run in the microtask after the `count`-th tool of the batch started: "right after"
 * the last one started, while the finished ones' results are still on their way to the batch.
 */
function abortAfterStarts(count: number): {
  readonly controller: AbortController;
  readonly invocations: Invocations;
  readonly started: (name: string) => number;
} {
  const controller = new AbortController();
  const invocations: Invocations = [];
  /** Counts the start; says how often this tool has started, across run and resumption. */
  const started = (name: string): number => {
    invocations.push(name);
    if (invocations.length === count) {
      queueMicrotask(() => controller.abort(new Error('the worker is shutting down')));
    }
    return invocations.filter((invoked) => invoked === name).length;
  };
  return { controller, invocations, started };
}

/** A tool that works until `context.signal` aborts it, and then rejects (it honours the signal). */
function slow(name: string, idempotent: boolean, started: (name: string) => number): Tool {
  return tool({
    name,
    description: 'works until the signal aborts it',
    parameters: z.object({}),
    idempotent,
    execute: (_args, context) =>
      new Promise<string>((resolve, reject) => {
        const times = started(name);
        const { signal } = context;
        // Resumed, it finishes: every run has a signal (its lease's, SPEC WRK-4).
        if (signal === undefined || times > 1) return resolve(`${name} done`);
        if (signal.aborted) return reject(new Error('cut off before it began'));
        signal.addEventListener('abort', () => reject(new Error('cut off')), { once: true });
      }),
  });
}

/** A tool that answers at once, or fails at once. */
function fast(name: string, started: (name: string) => void, fails = false): Tool {
  return tool({
    name,
    description: 'answers at once',
    parameters: z.object({}),
    execute: () => {
      started(name);
      if (fails) throw new Error(`${name} refused`);
      return `${name} done`;
    },
  });
}

/** The batch's tool events as `type id`, in stream order. */
function toolEvents(events: readonly StreamEvent[]): string[] {
  return events.flatMap((event) => {
    const data = event.data as { toolCallId?: string; toolCall?: { id: string } };
    const id = data.toolCallId ?? data.toolCall?.id;
    return event.type.startsWith('ToolCall') && id !== undefined ? [`${event.type} ${id}`] : [];
  });
}

/**
 * Runs the batch `[name, id]…`, aborted right after its last tool started, checks that the run
 * stopped as aborted, and gives what a fresh agent on the same stream needs to resume it.
 */
async function abortedBatch(
  calls: readonly (readonly [string, string])[],
  tools: (started: (name: string) => number) => Tool[],
) {
  const store = createInMemoryEventStore();
  const { controller, invocations, started } = abortAfterStarts(calls.length);
  const { agent, events } = await testAgent(
    [toolCallResponse(calls.map(([name, id]) => ({ name, id }))), textResponse('never asked')],
    (builder) => builder.tools(tools(started)),
    { store },
  );
  const error = await rejection(agent.query('go', { signal: controller.signal }));
  expect(error.code).toBe('aborted');
  expect(agent.state().stopCause).toBe('aborted');
  const stored = await events();
  expect(stored.at(-1)?.type).toBe('AgentStopped');
  // A fresh agent on the same stream, as another worker would build it after a shutdown.
  const resume = async () => {
    const fresh = await testAgent(
      [textResponse('resumed')],
      (builder) =>
        builder
          .tools(tools(started))
          .ids(counterIds('resumed'))
          .clock(fixedClock('2026-01-02T00:00:00.000Z')),
      { store },
    );
    return { agent: fresh.agent, run: () => fresh.agent.run() };
  };
  return { invocations, stored, resume };
}

describe('an abort while a batch runs (LOOP-10, TOOL-7, WRK-5)', () => {
  it('LOOP-10 an abort keeps the outcome of a call that finished before a slower sibling honoured the signal', async () => {
    const { invocations, stored, resume } = await abortedBatch(
      [
        ['fast', 'f1'],
        ['charge', 'c1'],
      ],
      (started) => [fast('fast', started), slow('charge', false, started)],
    );
    expect(toolEvents(stored)).toEqual([
      'ToolCallStarted f1',
      'ToolCallStarted c1',
      'ToolCallCompleted f1',
    ]);
    const resumed = await resume();
    expect((await rejection(resumed.run())).code).toBe('unfulfilledToolCalls');
    // TOOL-7: only the call the abort cut off is in doubt; the finished one is not run again.
    expect(resumed.agent.pendingFeedback()).toMatchObject([
      { toolCall: { id: 'c1' }, ambiguous: true },
    ]);
    expect(invocations).toEqual(['fast', 'charge']);
  });

  it('LOOP-10 an abort keeps the outcome of a call that finished after a slower sibling it follows in the batch', async () => {
    const { invocations, stored, resume } = await abortedBatch(
      [
        ['lookup', 'l1'],
        ['fast', 'f1'],
      ],
      (started) => [slow('lookup', true, started), fast('fast', started)],
    );
    expect(toolEvents(stored)).toEqual([
      'ToolCallStarted l1',
      'ToolCallStarted f1',
      'ToolCallCompleted f1',
    ]);
    const resumed = await resume();
    await resumed.run();
    // TOOL-7: the idempotent call the abort cut off runs again; the finished one does not.
    expect(invocations).toEqual(['lookup', 'fast', 'lookup']);
    expect(resumed.agent.history().at(-1)).toMatchObject({ role: 'assistant', text: 'resumed' });
  });

  it('LOOP-10 an abort keeps the outcomes of the finished calls on both sides of a slow one', async () => {
    const { invocations, stored, resume } = await abortedBatch(
      [
        ['first', 'a1'],
        ['charge', 'c1'],
        ['last', 'z1'],
      ],
      (started) => [fast('first', started), slow('charge', false, started), fast('last', started)],
    );
    expect(toolEvents(stored)).toEqual([
      'ToolCallStarted a1',
      'ToolCallStarted c1',
      'ToolCallStarted z1',
      'ToolCallCompleted a1',
      'ToolCallCompleted z1',
    ]);
    const resumed = await resume();
    expect((await rejection(resumed.run())).code).toBe('unfulfilledToolCalls');
    expect(resumed.agent.pendingFeedback().map((pending) => pending.toolCall.id)).toEqual(['c1']);
    expect(invocations).toEqual(['first', 'charge', 'last']);
  });

  it('LOOP-10 an abort keeps the failure of a call that failed before a slower sibling honoured the signal', async () => {
    const { invocations, stored, resume } = await abortedBatch(
      [
        ['fragile', 'x1'],
        ['lookup', 'l1'],
      ],
      (started) => [fast('fragile', started, true), slow('lookup', true, started)],
    );
    expect(toolEvents(stored)).toEqual([
      'ToolCallStarted x1',
      'ToolCallStarted l1',
      'ToolCallFailed x1',
    ]);
    expect(stored.find((event) => event.type === 'ToolCallFailed')?.data).toMatchObject({
      error: 'fragile refused',
    });
    const resumed = await resume();
    await resumed.run();
    expect(invocations).toEqual(['fragile', 'lookup', 'lookup']);
  });

  it('LOOP-10 an abort before any call finished records no outcome, and every call follows TOOL-7', async () => {
    const { invocations, stored, resume } = await abortedBatch(
      [
        ['charge', 'c1'],
        ['lookup', 'l1'],
      ],
      (started) => [slow('charge', false, started), slow('lookup', true, started)],
    );
    expect(toolEvents(stored)).toEqual(['ToolCallStarted c1', 'ToolCallStarted l1']);
    const resumed = await resume();
    expect((await rejection(resumed.run())).code).toBe('unfulfilledToolCalls');
    // The idempotent call ran again; the other waits for a person.
    expect(resumed.agent.pendingFeedback().map((pending) => pending.toolCall.id)).toEqual(['c1']);
    expect(invocations).toEqual(['charge', 'lookup', 'lookup']);
  });

  it('LOOP-10 TOOL-7 an abort while the starts are written runs no tool and records no outcome', async () => {
    const controller = new AbortController();
    const inner = createInMemoryEventStore();
    const store: EventStore = {
      ...inner,
      appendToStream(streamId, events, options: AppendOptions) {
        const appended = inner.appendToStream(streamId, events, options);
        // The starts are stored, and the signal aborts before any tool is invoked.
        if (events.some((event) => event.type === 'ToolCallStarted')) controller.abort();
        return appended;
      },
    };
    const invocations: Invocations = [];
    // No tool starts before the abort here: an invocation is the resumption's, which finishes.
    const started = (name: string): number => invocations.push(name) + 1;
    const { agent, events } = await testAgent(
      [toolCallResponse([{ name: 'lookup', id: 'l1' }]), textResponse('found')],
      (builder) => builder.tools([slow('lookup', true, started)]),
      { store },
    );
    expect((await rejection(agent.query('go', { signal: controller.signal }))).code).toBe(
      'aborted',
    );
    expect(toolEvents(await events())).toEqual(['ToolCallStarted l1']);
    expect(agent.state().stopCause).toBe('aborted');
    expect(invocations).toEqual([]);
    await agent.run();
    expect(invocations).toEqual(['lookup']);
  });

  it('LOOP-10 a tool that a failed hook left running still hears a later abort', async () => {
    const controller = new AbortController();
    const heard: string[] = [];
    const listening = tool({
      name: 'lookup',
      description: 'works until the signal aborts it',
      parameters: z.object({}),
      execute: (_args, context) =>
        new Promise<string>((_resolve, reject) => {
          context.signal?.addEventListener('abort', () => {
            heard.push('lookup');
            reject(new Error('cut off'));
          });
        }),
    });
    const { agent, events } = await testAgent(
      [
        toolCallResponse([
          { name: 'fast', id: 'f1' },
          { name: 'lookup', id: 'l1' },
        ]),
      ],
      (builder) =>
        builder.tools([fast('fast', () => undefined), listening]).afterTool(() => {
          throw new Error('the hook broke');
        }),
    );
    const error = await rejection(agent.query('go', { signal: controller.signal }));
    expect(error.code).toBe('hookFailed');
    expect(toolEvents(await events())).toEqual(['ToolCallStarted f1', 'ToolCallStarted l1']);
    // The batch was abandoned with the lookup still at work: the caller can still stop it.
    controller.abort();
    expect(heard).toEqual(['lookup']);
  });
});
