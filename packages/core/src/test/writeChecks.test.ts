import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent } from '../agent/agent.js';
import { decodeEvent } from '../events/decodeEvent.js';
import { foldStream } from '../events/foldEvents.js';
import { ToolOutput } from '../messages/toolOutput.js';
import { createInMemoryEventStore } from '../store/inMemoryEventStore.js';
import { tool } from '../tools/createTool.js';
import { counterIds, fixedClock } from '../testing/fixedClock.js';
import { scriptedModel, textResponse, toolCallResponse } from '../testing/scriptedModel.js';
import { rejection, testAgent } from './testAgent.js';

// EVT-6: what is appended passes exactly the checks that reading applies.

/** Reads the stream back as a fresh process would and folds it. */
async function readBack(agent: Agent, store: ReturnType<typeof createInMemoryEventStore>) {
  const stored = await store.readStream(agent.streamId);
  stored.forEach((event) => decodeEvent(event));
  return foldStream(stored).state;
}

const anything = fc.anything({
  withBigInt: true,
  withDate: true,
  withMap: true,
  withSet: true,
  withNullPrototype: true,
  withTypedArray: true,
  maxDepth: 3,
});

describe('one check on both paths', () => {
  it('EVT-6 garbage from the model, tools and hooks never makes a stream that cannot be read back', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          answer: fc.oneof(
            anything,
            fc.record({ message: anything, toolCalls: anything, usage: anything, model: anything }),
          ),
          usage: anything,
          args: anything,
          toolReturns: anything,
          toolThrows: fc.option(anything),
          hookReturns: fc.option(anything),
          messageHook: fc.option(anything),
        }),
        async (garbage) => {
          const store = createInMemoryEventStore();
          const junk = tool({
            name: 'junk',
            description: 'returns anything',
            parameters: z.object({}),
            execute: () => {
              // eslint-disable-next-line @typescript-eslint/only-throw-error -- a tool may throw anything
              if (garbage.toolThrows !== null) throw garbage.toolThrows;
              return garbage.toolReturns as never;
            },
          });
          const model = scriptedModel([
            () =>
              ({
                ...toolCallResponse([{ name: 'junk', id: 'j1' }]),
                usage: garbage.usage,
              }) as never,
            () => ({ toolCalls: [{ id: 'j2', name: 'junk', args: garbage.args }] }) as never,
            () => garbage.answer as never,
            textResponse('done'),
          ]);
          let builder = Agent.builder()
            .llm(model)
            .tools([junk])
            .store(store)
            .streamId('garbage')
            .clock(fixedClock())
            .ids(counterIds())
            .logger({ warn: () => undefined });
          if (garbage.hookReturns !== null)
            builder = builder.afterTool(() => garbage.hookReturns as never);
          if (garbage.messageHook !== null)
            builder = builder.onNewMessage(() => garbage.messageHook as never);
          const agent = await builder.build();
          await agent.query('go').catch(() => undefined);
          const read = await readBack(agent, store);
          expect(read).toEqual(agent.state());
          expect(read.status).not.toBe('running');
        },
      ),
      { numRuns: 300 },
    );
  });

  it('EVT-6 usage a gateway sends half-made is completed or dropped, never stored unreadable', async () => {
    const { agent, events } = await testAgent([
      { ...textResponse('a'), usage: { promptTokens: 12 } } as never,
    ]);
    await agent.query('q');
    const responded = (await events()).find((event) => event.type === 'ModelResponded');
    expect((responded?.data as { response: object }).response).not.toHaveProperty('usage');
    const total = await testAgent([
      { ...textResponse('a'), usage: { promptTokens: 2, completionTokens: 3 } } as never,
    ]);
    await total.agent.query('q');
    const usage = (
      (await total.events()).find((event) => event.type === 'ModelResponded')?.data as {
        response: { usage: object };
      }
    ).response.usage;
    expect(usage).toEqual({ promptTokens: 2, completionTokens: 3, totalTokens: 5 });
  });

  it('EVT-6 TOOL-3 a tool output whose text is not a string is a recorded failure that names the field', async () => {
    const broken = tool({
      name: 'broken',
      description: 'returns a number as text',
      parameters: z.object({}),
      execute: () => ({ kind: 'text', text: 42 }) as never,
    });
    const { agent, events } = await testAgent(
      [toolCallResponse([{ name: 'broken', id: 'b1' }]), textResponse('ok')],
      (b) => b.tools([broken]),
    );
    await agent.query('q');
    const failed = (await events()).find((event) => event.type === 'ToolCallFailed');
    expect((failed?.data as { error: string }).error).toBe(
      'tool broken returned an output that is not valid: output.text: expected a string, got number',
    );
  });

  it('EVT-6 a tool output with an extra key is stored with its known keys only', async () => {
    const extra = tool({
      name: 'extra',
      description: 'adds a key',
      parameters: z.object({}),
      execute: () => ({ kind: 'text', text: 'hi', debug: { at: 1 } }) as never,
    });
    const { agent, store } = await testAgent(
      [toolCallResponse([{ name: 'extra', id: 'x1' }]), textResponse('ok')],
      (b) => b.tools([extra]),
    );
    await agent.query('q');
    const output = agent.history().find((message) => message.role === 'tool');
    expect(output).toMatchObject({ output: { kind: 'text', text: 'hi' } });
    expect(JSON.stringify(output)).not.toContain('debug');
    expect(await readBack(agent, store)).toEqual(agent.state());
  });

  it('TOOL-3 a tool that throws a value without a text form fails the call, and the process lives', async () => {
    const odd = tool({
      name: 'odd',
      description: 'throws a bare object',
      parameters: z.object({}),
      execute: () => {
        throw Object.create(null) as Error;
      },
    });
    const { agent, events } = await testAgent(
      [toolCallResponse([{ name: 'odd', id: 'o1' }]), textResponse('ok')],
      (b) => b.tools([odd]),
    );
    await agent.query('q');
    const failed = (await events()).find((event) => event.type === 'ToolCallFailed');
    expect((failed?.data as { error: string }).error).toBe(
      'a value without a text form ([object Object])',
    );
  });

  it('EVT-6 cyclic args and usage from the model are a recorded failure or dropped, not a bare TypeError', async () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    const echo = tool({
      name: 'echo',
      description: 'e',
      parameters: z.object({}),
      execute: () => 'e',
    });
    const { agent, events } = await testAgent(
      [
        { toolCalls: [{ id: 'c1', name: 'echo', args: cyclic }], usage: cyclic } as never,
        textResponse('ok'),
      ],
      (b) => b.tools([echo]),
    );
    await agent.query('q');
    const failed = (await events()).find((event) => event.type === 'ToolCallFailed');
    expect((failed?.data as { error: string }).error).toContain('arguments are not valid JSON');
  });

  it('LOOP-9 EVT-6 an afterTool hook whose output cannot be recorded fails the run naming the hook and the field', async () => {
    const echo = tool({
      name: 'echo',
      description: 'e',
      parameters: z.object({}),
      execute: () => 'e',
    });
    const { agent, store } = await testAgent(
      [toolCallResponse([{ name: 'echo', id: 'e1' }])],
      (b) =>
        b
          .tools([echo])
          .afterTool(() => ({ ok: true, output: { kind: 'text', text: null } }) as never),
    );
    const error = await rejection(agent.query('q'));
    expect(error.code).toBe('hookFailed');
    expect(error.message).toContain('afterTool hook returned');
    expect(error.message).toContain('output.text: expected a string, got null');
    expect(await readBack(agent, store)).toEqual(agent.state());
    void ToolOutput;
  });
});
