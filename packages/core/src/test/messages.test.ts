import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { messagesForCompletion, type ChatMessage } from '../messages/chatMessage.js';
import { canonicalArgs } from '../messages/toolCall.js';
import { asAgentFailed, asFail, asStop, asText, ToolOutput } from '../messages/toolOutput.js';
import { tool } from '../tools/createTool.js';
import { textResponse, toolCallResponse } from '../testing/scriptedModel.js';
import { testAgent } from './testAgent.js';

describe('messages', () => {
  it('MSG-1 the history holds system, user, assistant (text plus tool calls), tool (with the whole call) and summary messages', async () => {
    const echo = tool({
      name: 'echo',
      description: 'e',
      parameters: z.object({ t: z.string() }),
      execute: ({ t }) => t,
    });
    const { agent } = await testAgent(
      [
        toolCallResponse([{ name: 'echo', args: { t: 'x' }, id: 'c1' }], 'let me echo'),
        textResponse('done'),
      ],
      (b) => b.systemPrompt('sys').tools([echo]),
    );
    await agent.query('hi');
    await agent.addSummary('we echoed x');
    const history: readonly ChatMessage[] = agent.history();
    expect(history).toEqual([
      { role: 'system', text: 'sys' },
      { role: 'user', text: 'hi' },
      {
        role: 'assistant',
        text: 'let me echo',
        toolCalls: [{ id: 'c1', name: 'echo', args: '{"t":"x"}' }],
      },
      {
        role: 'tool',
        toolCall: { id: 'c1', name: 'echo', args: '{"t":"x"}' },
        output: { kind: 'text', text: 'x' },
      },
      { role: 'assistant', text: 'done', toolCalls: [] },
      { role: 'summary', text: 'we echoed x' },
    ]);
  });

  it('MSG-2 JSON object args are canonicalised once on arrival: sorted keys, a repeated key keeps its last value', async () => {
    expect(canonicalArgs('{ "b": 1, "a": {"d": [1, 2], "c": null}, "b": 2 }')).toBe(
      '{"a":{"c":null,"d":[1,2]},"b":2}',
    );
    expect(canonicalArgs('not json')).toBe('not json');
    expect(canonicalArgs('[1, 2]')).toBe('[1, 2]');
    expect(canonicalArgs(undefined)).toBeUndefined();
    const { agent, events } = await testAgent([
      toolCallResponse([{ name: 'stop', args: '{"z": 1,  "a": 2}', id: 's' }]),
    ]);
    await agent.query('q');
    const responded = (await events()).find((e) => e.type === 'ModelResponded');
    expect(responded?.data).toMatchObject({
      response: { toolCalls: [{ id: 's', name: 'stop', args: '{"a":2,"z":1}' }] },
    });
  });

  it('MSG-3 tool outputs have five variants and accessors return the content or undefined', () => {
    const outputs = [
      ToolOutput.text('t'),
      ToolOutput.fail('f'),
      ToolOutput.stop({ done: true }),
      ToolOutput.agentFailed('why'),
      ToolOutput.feedbackRequired({ ask: 1 }),
    ];
    expect(outputs.map((o) => o.kind)).toEqual([
      'text',
      'fail',
      'stop',
      'agentFailed',
      'feedbackRequired',
    ]);
    expect(outputs.map(asText)).toEqual(['t', undefined, undefined, undefined, undefined]);
    expect(outputs.map(asFail)).toEqual([undefined, 'f', undefined, undefined, undefined]);
    expect(outputs.map(asStop)).toEqual([
      undefined,
      undefined,
      { done: true },
      undefined,
      undefined,
    ]);
    expect(outputs.map(asAgentFailed)).toEqual([undefined, undefined, undefined, 'why', undefined]);
    expect(ToolOutput.asStop(ToolOutput.stop())).toBeUndefined();
    expect(ToolOutput.stop()).toEqual({ kind: 'stop' });
  });

  it('MSG-4 the model sees nothing before the last summary except system messages', async () => {
    const history: ChatMessage[] = [
      { role: 'system', text: 'sys' },
      { role: 'user', text: 'old' },
      { role: 'summary', text: 'first summary' },
      { role: 'user', text: 'middle' },
      { role: 'summary', text: 'second summary' },
      { role: 'user', text: 'new' },
    ];
    expect(messagesForCompletion(history)).toEqual([
      { role: 'system', text: 'sys' },
      { role: 'summary', text: 'second summary' },
      { role: 'user', text: 'new' },
    ]);
    const { agent, model } = await testAgent([textResponse('one'), textResponse('two')], (b) =>
      b.systemPrompt('sys'),
    );
    await agent.query('long story');
    await agent.addSummary('short story');
    await agent.query('next');
    expect(model.requests[1]?.messages).toEqual([
      { role: 'system', text: 'sys' },
      { role: 'summary', text: 'short story' },
      { role: 'user', text: 'next' },
    ]);
    expect(agent.history()).toHaveLength(6);
  });
});
