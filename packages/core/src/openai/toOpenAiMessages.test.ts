import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '../messages/chatMessage.js';
import { ToolOutput } from '../messages/toolOutput.js';
import { toOpenAiMessages, toOpenAiTools } from './toOpenAiMessages.js';

const call = { id: 'call_1', name: 'search', args: '{"q":"x"}' };

describe('toOpenAiMessages()', () => {
  it('maps system, user and summary messages (a summary is a prefixed user message)', () => {
    const history: ChatMessage[] = [
      { role: 'system', text: 'be brief' },
      { role: 'summary', text: 'we searched twice' },
      { role: 'user', text: 'hello' },
    ];
    expect(toOpenAiMessages(history)).toEqual([
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'Summary of the conversation so far:\nwe searched twice' },
      { role: 'user', content: 'hello' },
    ]);
  });

  it('maps an assistant message with tool calls: null content, args default to {}', () => {
    const message: ChatMessage = {
      role: 'assistant',
      toolCalls: [call, { id: 'call_2', name: 'now' }],
    };
    expect(toOpenAiMessages([message])).toStrictEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'search', arguments: '{"q":"x"}' } },
          { id: 'call_2', type: 'function', function: { name: 'now', arguments: '{}' } },
        ],
      },
    ]);
  });

  it('maps an assistant text without tool calls and leaves tool_calls out', () => {
    expect(toOpenAiMessages([{ role: 'assistant', text: 'done', toolCalls: [] }])).toStrictEqual([
      { role: 'assistant', content: 'done' },
    ]);
    expect(
      toOpenAiMessages([{ role: 'assistant', text: 'looking', toolCalls: [call] }]),
    ).toStrictEqual([
      {
        role: 'assistant',
        content: 'looking',
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'search', arguments: '{"q":"x"}' } },
        ],
      },
    ]);
  });

  it('sends an empty string for an assistant message with neither text nor calls', () => {
    expect(toOpenAiMessages([{ role: 'assistant', toolCalls: [] }])).toStrictEqual([
      { role: 'assistant', content: '' },
    ]);
  });

  it.each([
    [ToolOutput.text('42 results'), '42 results'],
    [ToolOutput.fail('no such file'), 'no such file'],
    [ToolOutput.stop({ answer: 'yes' }), '{"answer":"yes"}'],
    [ToolOutput.stop(), ''],
    [ToolOutput.agentFailed('gave up'), '"gave up"'],
    [ToolOutput.feedbackRequired({ question: 'ok?' }), '{"question":"ok?"}'],
    [ToolOutput.feedbackRequired(), ''],
  ])('maps the tool output %j to a tool message with content %j', (output, content) => {
    expect(toOpenAiMessages([{ role: 'tool', toolCall: call, output }])).toStrictEqual([
      { role: 'tool', tool_call_id: 'call_1', content },
    ]);
  });
});

describe('toOpenAiTools()', () => {
  it('maps specs to strict function tools', () => {
    const parameters = {
      type: 'object',
      properties: { q: { type: 'string' } },
      required: ['q'],
      additionalProperties: false,
    };
    expect(toOpenAiTools([{ name: 'search', description: 'Searches.', parameters }])).toStrictEqual(
      [
        {
          type: 'function',
          function: { name: 'search', description: 'Searches.', parameters, strict: true },
        },
      ],
    );
  });

  it('maps no specs to an empty list', () => {
    expect(toOpenAiTools([])).toEqual([]);
  });
});
