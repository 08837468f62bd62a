import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AgentHandle } from '../api/agentHandle.js';
import { ToolOutput } from '../messages/toolOutput.js';
import { tool } from '../tools/createTool.js';
import { textResponse, toolCallResponse } from '../testing/scriptedModel.js';
import { rejection, testAgent } from './testAgent.js';

const echo = tool({
  name: 'echo',
  description: 'Echoes its text.',
  parameters: z.object({ text: z.string() }),
  execute: ({ text }) => `echo: ${text}`,
});

describe('the run loop', () => {
  it('LOOP-1 query adds a user message; run adds none', async () => {
    const { agent, types } = await testAgent(
      [textResponse('hi'), toolCallResponse([{ name: 'stop' }])],
      (b) => b.stopOnAssistant(false),
    );
    await agent.queryOnce('hello');
    expect(agent.history().filter((m) => m.role === 'user')).toEqual([
      { role: 'user', text: 'hello' },
    ]);
    await agent.run();
    expect(agent.history().filter((m) => m.role === 'user')).toHaveLength(1);
    expect((await types()).filter((t) => t === 'UserMessageAdded')).toHaveLength(1);
  });

  it('LOOP-1 queryOnce makes one completion and stops with noNewMessages', async () => {
    const { agent, model } = await testAgent(
      [toolCallResponse([{ name: 'echo', args: { text: 'a' } }])],
      (b) => b.tools([echo]),
    );
    await agent.queryOnce('go');
    expect(model.requests).toHaveLength(1);
    expect(agent.stopReason()).toEqual({ kind: 'noNewMessages' });
    expect(agent.state().stopCause).toBe('singleStep');
    expect(agent.history().at(-1)).toMatchObject({
      role: 'tool',
      output: { kind: 'text', text: 'echo: a' },
    });
  });

  it('LOOP-1 runOnce stops after one completion unless a tool stopped the agent first', async () => {
    const { agent } = await testAgent([toolCallResponse([{ name: 'stop' }])]);
    await agent.queryOnce('go').catch(() => undefined);
    expect(agent.stopReason()?.kind).toBe('requestedByTool');
    expect(agent.state().stopCause).toBe('toolRequestedStop');
  });

  it('LOOP-2 a second run while one is in progress rejects with alreadyRunning and records nothing', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const { agent, types } = await testAgent([
      async () => {
        await gate;
        return textResponse('done');
      },
    ]);
    const first = agent.query('one');
    await new Promise((resolve) => setTimeout(resolve, 5));
    const before = (await types()).length;
    const error = await rejection(agent.query('two'));
    expect(error.code).toBe('alreadyRunning');
    expect((await types()).length).toBe(before);
    release();
    await first;
    expect(agent.stopReason()?.kind).toBe('noNewMessages');
  });

  it('LOOP-2 the first run fires beforeAll, adds the system prompt, queues, adds, fires onStart, in that order', async () => {
    const seen: string[] = [];
    const { agent, types } = await testAgent([textResponse('a'), textResponse('b')], (b) =>
      b
        .systemPrompt('You are terse.')
        .beforeAll((a) => void seen.push(`beforeAll:${a.history().length}`))
        .onStart((a) => void seen.push(`onStart:${a.history().length}`)),
    );
    await agent.query('first');
    await agent.query('second');
    expect(seen).toEqual(['beforeAll:0', 'onStart:2', 'onStart:4']);
    expect(await types()).toEqual([
      'RunStarted',
      'SystemPromptAdded',
      'UserMessageQueued',
      'UserMessageAdded',
      'ModelResponded',
      'AssistantMessageAdded',
      'AgentStopped',
      'RunStarted',
      'UserMessageQueued',
      'UserMessageAdded',
      'ModelResponded',
      'AssistantMessageAdded',
      'AgentStopped',
    ]);
    expect(agent.history().filter((m) => m.role === 'system')).toHaveLength(1);
  });

  it('LOOP-3 a text answer ends the run by default', async () => {
    const { agent, model } = await testAgent([textResponse('the answer')]);
    await agent.query('q');
    expect(model.requests).toHaveLength(1);
    expect(agent.stopReason()).toEqual({ kind: 'noNewMessages' });
    expect(agent.state().stopCause).toBe('assistantAnswered');
  });

  it('LOOP-3 with stopOnAssistant(false) a text answer asks the model again', async () => {
    const { agent, model } = await testAgent(
      [textResponse('thinking'), toolCallResponse([{ name: 'stop' }])],
      (b) => b.stopOnAssistant(false),
    );
    await agent.query('q');
    expect(model.requests).toHaveLength(2);
    expect(model.requests[1]?.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(agent.stopReason()?.kind).toBe('requestedByTool');
  });

  it('LOOP-4 a step sends the history and every tool spec ordered by name', async () => {
    const zeta = tool({
      name: 'zeta',
      description: 'z',
      parameters: z.object({}),
      execute: () => 'z',
    });
    const { agent, model } = await testAgent([textResponse('ok')], (b) =>
      b.systemPrompt('sys').tools([zeta, echo]),
    );
    await agent.query('hi');
    const request = model.requests[0];
    expect(request?.tools.map((t) => t.name)).toEqual(['echo', 'stop', 'zeta']);
    expect(request?.messages).toEqual([
      { role: 'system', text: 'sys' },
      { role: 'user', text: 'hi' },
    ]);
  });

  it('LOOP-4 hooks run in step order and may replace the request and the response', async () => {
    const order: string[] = [];
    const { agent, model, events } = await testAgent([textResponse('raw answer')], (b) =>
      b
        .beforeCompletion((_a, request) => {
          order.push('beforeCompletion');
          return {
            ...request,
            messages: [...request.messages, { role: 'user', text: 'added by hook' }],
          };
        })
        .afterCompletion((_a, response) => {
          order.push('afterCompletion');
          return { ...response, message: 'hooked answer' };
        })
        .onNewMessage((_a, message) => {
          order.push(`onNewMessage:${message.role}`);
        })
        .afterEach(() => void order.push('afterEach')),
    );
    await agent.query('hi');
    expect(order).toEqual([
      'beforeCompletion',
      'afterCompletion',
      'onNewMessage:assistant',
      'afterEach',
    ]);
    expect(model.requests[0]?.messages.at(-1)).toEqual({ role: 'user', text: 'added by hook' });
    const stored = await events();
    const responded = stored.find((e) => e.type === 'ModelResponded');
    expect(responded?.data).toMatchObject({ response: { message: 'raw answer' } });
    expect(agent.history().at(-1)).toEqual({
      role: 'assistant',
      text: 'hooked answer',
      toolCalls: [],
    });
  });

  it('LOOP-5 limit caps completions per run, warns, and stops with noNewMessages; query resolves', async () => {
    const step = () => toolCallResponse([{ name: 'echo', args: { text: 'again' } }]);
    const { agent, model, warnings } = await testAgent([step(), step(), step(), step()], (b) =>
      b.tools([echo]).limit(2),
    );
    await expect(agent.query('loop')).resolves.toBeUndefined();
    expect(model.requests).toHaveLength(2);
    expect(agent.stopReason()).toEqual({ kind: 'noNewMessages' });
    expect(agent.state().stopCause).toBe('limitReached');
    expect(warnings.some((w) => w.includes('limit of 2'))).toBe(true);
    // The counter starts at zero again with the next run.
    await agent.query('more');
    expect(model.requests).toHaveLength(4);
  });

  it('LOOP-6 a text answer, an empty answer and the limit each record their own cause', async () => {
    const empty = await testAgent([{ toolCalls: [] }]);
    await empty.agent.query('q');
    expect(empty.agent.stopReason()).toEqual({ kind: 'noNewMessages' });
    expect(empty.agent.state().stopCause).toBe('emptyResponse');
    expect(empty.agent.history().some((m) => m.role === 'assistant')).toBe(false);

    const text = await testAgent([textResponse('answer')]);
    await text.agent.query('q');
    expect(text.agent.state().stopCause).toBe('assistantAnswered');

    const limited = await testAgent(
      [toolCallResponse([{ name: 'echo', args: { text: 'x' } }])],
      (b) => b.tools([echo]).limit(1),
    );
    await limited.agent.query('q');
    expect(limited.agent.state().stopCause).toBe('limitReached');
  });

  it('LOOP-7 a stopped agent can be queried again and continues the same history', async () => {
    const { agent, model } = await testAgent([textResponse('one'), textResponse('two')]);
    await agent.query('first');
    await agent.query('second');
    expect(
      model.requests[1]?.messages.map((m) =>
        m.role === 'assistant' ? m.text : m.role === 'user' ? m.text : m.role,
      ),
    ).toEqual(['first', 'one', 'second']);
    expect(agent.stopReason()?.kind).toBe('noNewMessages');
  });

  it('LOOP-8 a failing completion ends the run with stop reason error and never leaves it running', async () => {
    const { agent, types } = await testAgent([{ throws: new Error('gateway timeout') }]);
    const error = await rejection(agent.query('q'));
    expect(error.code).toBe('completionFailed');
    expect(error.message).toContain('gateway timeout');
    expect(agent.state().status).toBe('stopped');
    expect(agent.stopReason()).toEqual({
      kind: 'error',
      message: 'the completion failed: gateway timeout',
    });
    expect((await types()).at(-1)).toBe('AgentStopped');
  });

  it('LOOP-8 a throwing hook ends the run with stop reason error and rejects with hookFailed', async () => {
    const stops: string[] = [];
    const { agent } = await testAgent([textResponse('x')], (b) =>
      b
        .afterEach(() => {
          throw new Error('hook broke');
        })
        .onStop((_a, reason, error) => void stops.push(`${reason.kind}:${error?.message ?? ''}`)),
    );
    const error = await rejection(agent.query('q'));
    expect(error.code).toBe('hookFailed');
    expect(agent.stopReason()?.kind).toBe('error');
    expect(stops).toEqual(['error:a afterEach hook failed: hook broke']);
  });

  it('LOOP-9 hooks of one kind run in the order they were added and receive the agent first', async () => {
    const seen: string[] = [];
    let received: AgentHandle | undefined;
    const { agent } = await testAgent([textResponse('x')], (b) =>
      b
        .onStart((a) => {
          received = a;
          seen.push('first');
        })
        .onStart(() => void seen.push('second'))
        .onStart(() => void seen.push('third')),
    );
    await agent.query('q');
    expect(seen).toEqual(['first', 'second', 'third']);
    expect(received).toBe(agent);
  });

  it('LOOP-9 onNewMessage fires for assistant messages and tool outputs, not for system or user messages', async () => {
    const roles: string[] = [];
    const { agent } = await testAgent(
      [toolCallResponse([{ name: 'echo', args: { text: 'a' } }]), textResponse('done')],
      (b) =>
        b
          .systemPrompt('sys')
          .tools([echo])
          .onNewMessage((_a, message) => void roles.push(message.role)),
    );
    await agent.query('q');
    expect(roles).toEqual(['assistant', 'tool', 'assistant']);
  });

  it('LOOP-9 onNewMessage may replace a tool output before it enters the history', async () => {
    const { agent, model } = await testAgent(
      [toolCallResponse([{ name: 'echo', args: { text: 'secret' } }]), textResponse('done')],
      (b) =>
        b
          .tools([echo])
          .onNewMessage((_a, message) =>
            message.role === 'tool'
              ? { ...message, output: ToolOutput.text('[redacted]') }
              : undefined,
          ),
    );
    await agent.query('q');
    expect(model.requests[1]?.messages.at(-1)).toMatchObject({
      role: 'tool',
      output: { kind: 'text', text: '[redacted]' },
    });
  });

  it('LOOP-9 a hook may stop the agent with agent.stop(text)', async () => {
    const { agent, model } = await testAgent(
      [toolCallResponse([{ name: 'echo', args: { text: 'a' } }]), textResponse('never')],
      (b) => b.tools([echo]).afterEach((a) => a.stop('enough')),
    );
    await agent.query('q');
    expect(agent.stopReason()).toEqual({ kind: 'other', text: 'enough' });
    expect(model.requests).toHaveLength(1);
  });

  it('LOOP-2 run() with nothing to resume and nothing new rejects with nothingToRun and records nothing', async () => {
    const { agent, types } = await testAgent([textResponse('x')]);
    await agent.query('q');
    const before = await types();
    const error = await rejection(agent.run());
    expect(error.code).toBe('nothingToRun');
    expect(await types()).toEqual(before);
  });
});

describe('hook return values', () => {
  it('LOOP-9 a hook that returns something that is not a replacement fails the run clearly', async () => {
    const { agent } = await testAgent(
      [toolCallResponse([{ name: 'echo', args: { text: 'a' } }]), textResponse('never')],
      (b) => b.tools([echo]).afterTool(() => true as never),
    );
    const error = await rejection(agent.query('q'));
    expect(error.code).toBe('hookFailed');
    expect(error.message).toBe(
      'a afterTool hook returned true, which is not a ToolResult ({ ok: true, output } or { ok: false, error }); return undefined to keep the value',
    );
    expect(agent.stopReason()?.kind).toBe('error');
  });
});
