import type { ChatCompletion, ChatCompletionChunk } from 'openai/resources/chat/completions';
import { describe, expect, it } from 'vitest';
import { AgentError } from '../errors/agentError.js';
import { fromOpenAiResponse, fromOpenAiStream } from './fromOpenAiResponse.js';

function completion(message: Partial<ChatCompletion.Choice['message']>): ChatCompletion {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 0,
    model: 'gpt-test',
    choices: [
      {
        index: 0,
        finish_reason: 'stop',
        logprobs: null,
        message: { role: 'assistant', content: null, refusal: null, ...message },
      },
    ],
  };
}

function chunk(
  delta: ChatCompletionChunk.Choice['delta'],
  extra: Partial<ChatCompletionChunk> = {},
): ChatCompletionChunk {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 0,
    model: 'gpt-test',
    choices: [{ index: 0, delta, finish_reason: null }],
    ...extra,
  };
}

async function* streamOf(chunks: ChatCompletionChunk[]): AsyncGenerator<ChatCompletionChunk> {
  await Promise.resolve();
  yield* chunks;
}

describe('fromOpenAiResponse()', () => {
  it('maps text, usage and model', () => {
    const response = fromOpenAiResponse({
      ...completion({ content: 'hello' }),
      usage: { prompt_tokens: 10, completion_tokens: 3, total_tokens: 13 },
    });
    expect(response).toStrictEqual({
      message: 'hello',
      toolCalls: [],
      usage: { promptTokens: 10, completionTokens: 3, totalTokens: 13 },
      model: 'gpt-test',
      finishReason: 'stop',
    });
  });

  it('maps several function tool calls, leaves out custom ones and empty arguments', () => {
    const response = fromOpenAiResponse(
      completion({
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'search', arguments: '{"q":"a"}' } },
          { id: 'c2', type: 'custom', custom: { name: 'grammar', input: 'x' } },
          { id: 'c3', type: 'function', function: { name: 'now', arguments: '' } },
        ],
      }),
    );
    expect(response).toStrictEqual({
      toolCalls: [
        { id: 'c1', name: 'search', args: '{"q":"a"}' },
        { id: 'c3', name: 'now' },
      ],
      model: 'gpt-test',
      finishReason: 'stop',
    });
  });

  it('LOOP-11 keeps a refusal apart from text, and reasoning content apart from both', () => {
    const refused = fromOpenAiResponse(completion({ refusal: 'I cannot help' }));
    expect(refused).toMatchObject({ refusal: 'I cannot help', finishReason: 'stop' });
    expect(refused).not.toHaveProperty('message');
    const reasoned = fromOpenAiResponse(
      completion({ content: '42', reasoning_content: 'six times seven' } as never),
    );
    expect(reasoned).toMatchObject({ message: '42', reasoning: 'six times seven' });
  });

  it('LOOP-11 maps every finish reason', () => {
    const reasons = ['stop', 'length', 'tool_calls', 'content_filter', 'function_call', 'odd'];
    const mapped = reasons.map((finish_reason) => {
      const base = completion({ content: 'x' });
      const [choice] = base.choices;
      return fromOpenAiResponse({ ...base, choices: [{ ...choice!, finish_reason } as never] })
        .finishReason;
    });
    expect(mapped).toEqual(['stop', 'length', 'toolCalls', 'contentFilter', 'toolCalls', 'other']);
  });

  it('fails with completionFailed when there are no choices', () => {
    const empty = { ...completion({}), choices: [] };
    expect(() => fromOpenAiResponse(empty)).toThrow(AgentError);
    expect(() => fromOpenAiResponse(empty)).toThrow(
      expect.objectContaining({ code: 'completionFailed' }),
    );
  });
});

describe('fromOpenAiStream()', () => {
  it('joins text deltas and calls onChunk with each of them', async () => {
    const deltas: string[] = [];
    const response = await fromOpenAiStream(
      streamOf([
        chunk({ role: 'assistant', content: '' }),
        chunk({ content: 'Hel' }),
        chunk({ content: 'lo' }),
        chunk({}, { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }),
        chunk(
          {},
          { choices: [], usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 } },
        ),
      ]),
      (delta) => deltas.push(delta),
    );
    expect(deltas).toEqual(['Hel', 'lo']);
    expect(response).toStrictEqual({
      message: 'Hello',
      toolCalls: [],
      usage: { promptTokens: 5, completionTokens: 2, totalTokens: 7 },
      finishReason: 'stop',
      model: 'gpt-test',
    });
  });

  it('joins tool-call fragments by index, in index order', async () => {
    const response = await fromOpenAiStream(
      streamOf([
        chunk({
          tool_calls: [
            { index: 1, id: 'c2', type: 'function', function: { name: 'now', arguments: '' } },
          ],
        }),
        chunk({
          tool_calls: [
            { index: 0, id: 'c1', type: 'function', function: { name: 'search', arguments: '' } },
          ],
        }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: '{"q":' } }] }),
        chunk({ tool_calls: [{ index: 1, function: { arguments: '{}' } }] }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: '"a"}' } }] }),
        chunk({}, { choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] }),
      ]),
    );
    expect(response.toolCalls).toStrictEqual([
      { id: 'c1', name: 'search', args: '{"q":"a"}' },
      { id: 'c2', name: 'now', args: '{}' },
    ]);
    expect(response).not.toHaveProperty('message');
  });

  it('LOOP-11 a stream without a finish reason, or with a tool call that never got its name, is badResponse', async () => {
    await expect(fromOpenAiStream(streamOf([chunk({ content: 'cut sh' })]))).rejects.toMatchObject({
      code: 'completionFailed',
      kind: 'badResponse',
      message: 'openai: the streamed answer ended without a finish reason, so it may be cut short',
    });
    await expect(
      fromOpenAiStream(
        streamOf([
          chunk({ tool_calls: [{ index: 0, function: { arguments: '{}' } }] }),
          chunk({}, { choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] }),
        ]),
      ),
    ).rejects.toMatchObject({
      kind: 'badResponse',
      message: 'openai: the streamed tool call at index 0 never got its id and name',
    });
  });

  it('fails with completionFailed when no chunk has a choice', async () => {
    await expect(fromOpenAiStream(streamOf([]))).rejects.toMatchObject({
      code: 'completionFailed',
    });
  });
});
