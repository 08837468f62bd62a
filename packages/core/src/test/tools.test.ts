import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ToolError } from '../errors/toolError.js';
import { ToolOutput } from '../messages/toolOutput.js';
import type { Tool } from '../api/tool.js';
import { tool } from '../tools/createTool.js';
import { textResponse, toolCallResponse } from '../testing/scriptedModel.js';
import { rejection, testAgent } from './testAgent.js';

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function slowTool(name: string, ms: number, log: string[]): Tool {
  return tool({
    name,
    description: `waits ${ms} ms`,
    parameters: z.object({}),
    execute: async () => {
      log.push(`start:${name}`);
      await delay(ms);
      log.push(`end:${name}`);
      return `${name} done`;
    },
  });
}

const flaky = (log: string[] = []) =>
  tool({
    name: 'flaky',
    description: 'always throws',
    parameters: z.object({ n: z.number() }),
    execute: ({ n }) => {
      log.push(`flaky:${n}`);
      throw new Error(`boom ${n}`);
    },
  });

describe('tools in the loop', () => {
  it('TOOL-2 a batch starts concurrently and is recorded in batch order whatever finished first', async () => {
    const log: string[] = [];
    const before: string[] = [];
    const { agent, events } = await testAgent(
      [
        toolCallResponse([
          { name: 'slow', id: 'c1' },
          { name: 'fast', id: 'c2' },
        ]),
        textResponse('done'),
      ],
      (b) =>
        b
          .tools([slowTool('slow', 30, log), slowTool('fast', 1, log)])
          .beforeTool((_a, call) => void before.push(call.id)),
    );
    await agent.query('go');
    expect(log).toEqual(['start:slow', 'start:fast', 'end:fast', 'end:slow']);
    expect(before).toEqual(['c1', 'c2']);
    const outcomes = (await events())
      .filter((e) => e.type === 'ToolCallCompleted' || e.type === 'ToolCallStarted')
      .map(
        (e) =>
          `${e.type}:${(e.data as { toolCallId?: string; toolCall?: { id: string } }).toolCallId ?? (e.data as { toolCall: { id: string } }).toolCall.id}`,
      );
    expect(outcomes).toEqual([
      'ToolCallStarted:c1',
      'ToolCallStarted:c2',
      'ToolCallCompleted:c1',
      'ToolCallCompleted:c2',
    ]);
  });

  it('TOOL-3 a thrown error goes back to the model as a fail output and counts', async () => {
    const { agent, model, events } = await testAgent(
      [toolCallResponse([{ name: 'flaky', args: { n: 1 } }]), textResponse('I give up')],
      (b) => b.tools([flaky()]),
    );
    await agent.query('go');
    expect(model.requests[1]?.messages.at(-1)).toMatchObject({
      role: 'tool',
      output: { kind: 'fail', text: 'boom 1' },
    });
    const failed = (await events()).find((e) => e.type === 'ToolCallFailed');
    expect(failed?.data).toMatchObject({ error: 'boom 1', failureCount: 1 });
  });

  it('TOOL-3 with toolRetryLimit(2) the same call may fail twice; the third failure stops and rejects', async () => {
    const log: string[] = [];
    const again = (id: string) => toolCallResponse([{ name: 'flaky', args: { n: 7 }, id }]);
    const { agent, model } = await testAgent(
      [again('a'), again('b'), again('c'), textResponse('never')],
      (b) => b.tools([flaky(log)]).toolRetryLimit(2),
    );
    const error = await rejection(agent.query('go'));
    expect(error.code).toBe('toolError');
    expect(log).toEqual(['flaky:7', 'flaky:7', 'flaky:7']);
    expect(agent.stopReason()).toEqual({
      kind: 'toolCallsOverLimit',
      toolCall: { id: 'c', name: 'flaky', args: '{"n":7}' },
    });
    expect(model.requests).toHaveLength(3);
  });

  it('TOOL-3 failures are counted per tool name plus canonical args, across new call ids and runs', async () => {
    const { agent } = await testAgent(
      [
        toolCallResponse([{ name: 'flaky', args: '{"n": 1}' }]),
        textResponse('pause'),
        toolCallResponse([{ name: 'flaky', args: '{ "n" : 1 }' }]),
        toolCallResponse([{ name: 'flaky', args: { n: 2 } }]),
        textResponse('pause'),
      ],
      (b) => b.tools([flaky()]).toolRetryLimit(5),
    );
    await agent.query('first');
    await agent.query('second');
    const counts = Object.values(agent.state().failureCounts).sort();
    expect(counts).toEqual([1, 2]);
  });

  it('TOOL-3 the default retry limit is 3: the fourth failure stops the agent', async () => {
    const again = () => toolCallResponse([{ name: 'flaky', args: { n: 3 } }]);
    const { agent, model } = await testAgent([again(), again(), again(), again()], (b) =>
      b.tools([flaky()]),
    );
    const error = await rejection(agent.query('go'));
    expect(error.code).toBe('toolError');
    expect(model.requests).toHaveLength(4);
  });

  it('TOOL-3 a ToolError thrown by a tool is a failure with its own message', async () => {
    const strict = tool({
      name: 'strict',
      description: 'throws a ToolError',
      parameters: z.object({}),
      execute: () => {
        throw ToolError.executionFailed('disk full');
      },
    });
    const { agent, events } = await testAgent(
      [toolCallResponse([{ name: 'strict' }]), textResponse('ok')],
      (b) => b.tools([strict]),
    );
    await agent.query('go');
    expect((await events()).find((e) => e.type === 'ToolCallFailed')?.data).toMatchObject({
      error: 'disk full',
    });
  });

  it('TOOL-4 a tool that returns ToolOutput.fail itself does not count toward the limit', async () => {
    const soft = tool({
      name: 'soft',
      description: 'reports a failure as output',
      parameters: z.object({}),
      execute: () => ToolOutput.fail('not today'),
    });
    const again = () => toolCallResponse([{ name: 'soft', args: {} }]);
    const { agent, model } = await testAgent([again(), again(), again(), textResponse('ok')], (b) =>
      b.tools([soft]).toolRetryLimit(1),
    );
    await agent.query('go');
    expect(model.requests).toHaveLength(4);
    expect(agent.stopReason()).toEqual({ kind: 'noNewMessages' });
    expect(agent.state().failureCounts).toEqual({});
  });

  it('TOOL-5 arguments that are not JSON, or do not match the schema, are a failure naming the problem', async () => {
    const { agent, events } = await testAgent(
      [
        toolCallResponse([
          { name: 'flaky', args: '{not json', id: 'bad-json' },
          { name: 'flaky', args: { n: 'one' }, id: 'bad-type' },
        ]),
        textResponse('ok'),
      ],
      (b) => b.tools([flaky()]),
    );
    await agent.query('go');
    const failures = (await events())
      .filter((e) => e.type === 'ToolCallFailed')
      .map((e) => e.data as { error: string });
    expect(failures).toHaveLength(2);
    expect(failures[0]?.error).toMatch(/not valid JSON/);
    expect(failures[1]?.error).toMatch(/n/);
    expect(failures[1]?.error).not.toMatch(/boom/);
  });

  it('TOOL-6 a call to a tool that does not exist is a counted failure "no tool named X"', async () => {
    const { agent, events } = await testAgent([
      toolCallResponse([{ name: 'teleport' }]),
      textResponse('ok'),
    ]);
    await agent.query('go');
    const failed = (await events()).find((e) => e.type === 'ToolCallFailed');
    expect(failed?.data).toMatchObject({ error: 'no tool named teleport', failureCount: 1 });
  });

  it('TOOL-6 a tool call without a name is a recorded failure, not a crash', async () => {
    const { agent, events } = await testAgent([
      { toolCalls: [{ id: 'x1', name: undefined as unknown as string }] },
      textResponse('ok'),
    ]);
    await agent.query('go');
    expect((await events()).find((e) => e.type === 'ToolCallFailed')?.data).toMatchObject({
      error: 'the tool call has no tool name',
    });
  });

  it('TOOL-7 ToolCallStarted is recorded before the tool runs and carries the idempotency key', async () => {
    let seenTypes: string[] = [];
    const { agent, store } = await testAgent(
      [toolCallResponse([{ name: 'probe', id: 'p1' }]), textResponse('ok')],
      (b) =>
        b.tools([
          tool({
            name: 'probe',
            description: 'looks at the stream while it runs',
            parameters: z.object({}),
            execute: async (_args, context) => {
              seenTypes = (await store.readStream(context.streamId)).map((e) => e.type);
              return context.idempotencyKey({ id: 'p1', name: 'probe' });
            },
          }),
        ]),
    );
    await agent.query('go');
    expect(seenTypes.at(-1)).toBe('ToolCallStarted');
    const started = (await store.readStream('test')).find((e) => e.type === 'ToolCallStarted');
    expect(started?.data).toMatchObject({ idempotencyKey: 'test:p1' });
    expect(agent.history().at(-2)).toMatchObject({ output: { kind: 'text', text: 'test:p1' } });
  });

  it('TOOL-2 a tool-call id the model reuses from an earlier completion gets a fresh id instead of crashing', async () => {
    const again = tool({
      name: 'again',
      description: 'a',
      parameters: z.object({}),
      execute: () => 'ok',
    });
    const { agent, events } = await testAgent(
      [
        toolCallResponse([{ name: 'again', args: {}, id: 'call_0' }]),
        toolCallResponse([{ name: 'again', args: {}, id: 'call_0' }]),
        textResponse('done'),
      ],
      (b) => b.tools([again]),
    );
    await agent.query('go');
    const ids = (await events())
      .filter((e) => e.type === 'ToolCallCompleted')
      .map((e) => (e.data as { toolCallId: string }).toolCallId);
    expect(ids).toHaveLength(2);
    expect(ids[0]).toBe('call_0');
    expect(ids[1]).not.toBe('call_0');
    expect(agent.stopReason()?.kind).toBe('noNewMessages');
  });
});
