import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent } from '../agent/agent.js';
import { createInMemoryEventStore } from '../store/inMemoryEventStore.js';
import { tool } from '../tools/createTool.js';
import { startChatCompletionsServer, type ServedAnswer } from '../testing/chatCompletionsServer.js';
import { counterIds, fixedClock } from '../testing/fixedClock.js';
import { createOpenAiChatCompletion } from './createOpenAiChatCompletion.js';

// The real `openai` client against a local OpenAI-compatible server, whose payloads are written
// by hand in the shape of chat-completions responses (SPEC LOOP-10, LOOP-11, LOOP-12).

const echo = tool({
  name: 'echo',
  description: 'Echoes a text.',
  parameters: z.object({ text: z.string() }),
  execute: ({ text }) => `echo: ${text}`,
});

async function runOn(script: readonly ServedAnswer[], streamed: boolean, maxRetries = 0) {
  const server = await startChatCompletionsServer(script);
  const warnings: unknown[][] = [];
  try {
    const store = createInMemoryEventStore();
    const agent = await Agent.builder()
      .llm(
        createOpenAiChatCompletion({
          model: 'gpt-4o',
          apiKey: 'test-key-not-secret',
          baseURL: server.baseURL,
          maxRetries,
        }),
      )
      .tools([echo])
      .logger({ warn: (...line) => void warnings.push(line) })
      .store(store)
      .streamId('gateway')
      .clock(fixedClock())
      .ids(counterIds())
      .build();
    const deltas: string[] = [];
    const error = await agent
      .query('go', streamed ? { onTextDelta: (delta) => void deltas.push(delta) } : {})
      .catch((caught: unknown) => caught);
    return {
      agent,
      error,
      deltas,
      events: await store.readStream('gateway'),
      requests: server.requests,
      warnings,
    };
  } finally {
    await server.close();
  }
}

const parallel: ServedAnswer[] = [
  {
    kind: 'answer',
    toolCalls: [
      { id: 'call_a', name: 'echo', args: '{"text":"first"}' },
      { id: 'call_b', name: 'echo', args: '{"text":"second"}' },
    ],
    pieces: 4,
  },
  { kind: 'answer', content: 'Both echoed.', pieces: 3 },
];

describe('a gateway’s payloads through the openai client', () => {
  it('LOOP-10 two parallel calls with argument deltas split across chunks assemble as the plain answer', async () => {
    const plain = await runOn(parallel, false);
    const streamed = await runOn(parallel, true);
    expect(plain.error).toBeUndefined();
    expect(JSON.stringify(streamed.events)).toBe(JSON.stringify(plain.events));
    expect(streamed.deltas.join('')).toBe('Both echoed.');
    expect(streamed.deltas.length).toBeGreaterThan(1);
    expect(plain.agent.history().filter((message) => message.role === 'tool')).toHaveLength(2);
    expect(streamed.requests.every((request) => request.stream === true)).toBe(true);
  });

  it('LOOP-11 a refusal and a length finish end the run with their own causes, streamed or not', async () => {
    for (const streamed of [false, true]) {
      const refused = await runOn(
        [{ kind: 'answer', refusal: "I can't help with that." }],
        streamed,
      );
      expect(refused.agent.state().stopCause).toBe('modelRefused');
      expect(refused.agent.history().at(-1)).toMatchObject({ refusal: "I can't help with that." });
      const cut = await runOn(
        [
          {
            kind: 'answer',
            toolCalls: [{ id: 'c1', name: 'echo', args: '{"text":"unfin' }],
            finishReason: 'length',
          },
        ],
        streamed,
      );
      expect(cut.agent.state().stopCause).toBe('tokenLimit');
      expect(cut.events.map((event) => event.type)).not.toContain('ToolCallStarted');
    }
  });

  it('LOOP-12 a 429 then a success: retried by the adapter and logged, or a rateLimited error with retryAfterMs', async () => {
    const script: ServedAnswer[] = [
      {
        kind: 'failure',
        status: 429,
        body: JSON.stringify({ error: { message: 'Rate limit reached', type: 'requests' } }),
        headers: { 'retry-after-ms': '10' },
      },
      { kind: 'answer', content: 'hello' },
    ];
    const retried = await runOn(script, false, 1);
    expect(retried.error).toBeUndefined();
    expect(retried.agent.history().at(-1)).toMatchObject({ text: 'hello' });
    expect(retried.warnings).toEqual([
      [
        expect.stringMatching(/failed \(429 Rate limit reached\); retrying in 10 ms/),
        expect.objectContaining({ streamId: 'gateway', status: 429, waitMs: 10 }),
      ],
    ]);
    const refused = await runOn(script, false, 0);
    expect(refused.error).toMatchObject({
      code: 'completionFailed',
      kind: 'rateLimited',
      status: 429,
      retryAfterMs: 10,
    });
    expect(refused.agent.state().stopCause).toBe('error');
  });

  it('LOOP-12 a gateway that answers HTML is a clear completionFailed', async () => {
    const html = await runOn(
      [
        {
          kind: 'failure',
          status: 502,
          body: '<html><body>Bad Gateway</body></html>',
          headers: { 'content-type': 'text/html' },
        },
      ],
      false,
    );
    expect(html.error).toMatchObject({
      code: 'completionFailed',
      kind: 'serverError',
      status: 502,
    });
  });
});
