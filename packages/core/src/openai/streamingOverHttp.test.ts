import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent } from '../agent/agent.js';
import { createInMemoryEventStore } from '../store/inMemoryEventStore.js';
import { tool } from '../tools/createTool.js';
import { counterIds, fixedClock } from '../testing/fixedClock.js';
import { createOpenAiChatCompletion } from './createOpenAiChatCompletion.js';

// LOOP-10: a streamed and a non-streamed run of the same answers store the same events. The
// answers are written by hand in the shape of OpenAI chat-completions payloads (JSON and SSE),
// served by a local server to the real `openai` client.

const answers = [
  { tool: { id: 'call_1', name: 'echo', args: ['{"te', 'xt":"h', 'i"}'] }, usage: [11, 7] },
  { text: ['All ', 'done', '.'], usage: [20, 3] },
] as const;

function completionJson(index: number) {
  const answer = answers[index]!;
  const message =
    'tool' in answer
      ? {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: answer.tool.id,
              type: 'function',
              function: { name: answer.tool.name, arguments: answer.tool.args.join('') },
            },
          ],
        }
      : { role: 'assistant', content: answer.text.join('') };
  return {
    id: `chatcmpl-${index}`,
    object: 'chat.completion',
    created: 1,
    model: 'gpt-4o-2024-08-06',
    choices: [
      {
        index: 0,
        message,
        finish_reason: 'tool' in answer ? 'tool_calls' : 'stop',
        logprobs: null,
      },
    ],
    usage: {
      prompt_tokens: answer.usage[0],
      completion_tokens: answer.usage[1],
      total_tokens: answer.usage[0] + answer.usage[1],
    },
  };
}

function completionChunks(index: number): unknown[] {
  const answer = answers[index]!;
  const base = {
    id: `chatcmpl-${index}`,
    object: 'chat.completion.chunk',
    created: 1,
    model: 'gpt-4o-2024-08-06',
  };
  const choice = (delta: unknown, finish_reason: string | null = null) => ({
    ...base,
    choices: [{ index: 0, delta, finish_reason }],
  });
  const chunks: unknown[] = [choice({ role: 'assistant', content: null })];
  if ('tool' in answer) {
    answer.tool.args.forEach((piece, at) =>
      chunks.push(
        choice({
          tool_calls: [
            at === 0
              ? {
                  index: 0,
                  id: answer.tool.id,
                  type: 'function',
                  function: { name: answer.tool.name, arguments: piece },
                }
              : { index: 0, function: { arguments: piece } },
          ],
        }),
      ),
    );
    chunks.push(choice({}, 'tool_calls'));
  } else {
    for (const piece of answer.text) chunks.push(choice({ content: piece }));
    chunks.push(choice({}, 'stop'));
  }
  chunks.push({
    ...base,
    choices: [],
    usage: {
      prompt_tokens: answer.usage[0],
      completion_tokens: answer.usage[1],
      total_tokens: answer.usage[0] + answer.usage[1],
    },
  });
  return chunks;
}

let server: Server;
let baseURL = '';
let served = 0;

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (part: Buffer) => (body += part.toString()));
    request.on('end', () => {
      const { stream, messages } = JSON.parse(body) as { stream?: boolean; messages: unknown[] };
      // The answer follows the conversation: one tool output means the second answer.
      const index = messages.some((message) => (message as { role: string }).role === 'tool')
        ? 1
        : 0;
      served += 1;
      if (stream === true) {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        for (const chunk of completionChunks(index))
          response.write(`data: ${JSON.stringify(chunk)}\n\n`);
        response.end('data: [DONE]\n\n');
      } else {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify(completionJson(index)));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const echo = tool({
  name: 'echo',
  description: 'Echoes a text.',
  parameters: z.object({ text: z.string() }),
  execute: ({ text }) => `echo: ${text}`,
});

async function run(streamed: boolean) {
  const store = createInMemoryEventStore();
  const deltas: string[] = [];
  const chunks: string[] = [];
  let builder = Agent.builder()
    .llm(
      createOpenAiChatCompletion({
        model: 'gpt-4o',
        apiKey: 'test-key-not-secret',
        baseURL,
        maxRetries: 0,
      }),
    )
    .tools([echo])
    .store(store)
    .streamId('stream-test')
    .clock(fixedClock())
    .ids(counterIds());
  if (streamed) builder = builder.onStream((_agent, chunk) => void chunks.push(chunk.delta));
  const agent = await builder.build();
  await agent.query('echo hi', streamed ? { onTextDelta: (delta) => void deltas.push(delta) } : {});
  return { events: await store.readStream('stream-test'), deltas, chunks, agent };
}

describe('streaming through the real openai client', () => {
  it('LOOP-10 a streamed and a non-streamed run of the same answers store byte-identical events', async () => {
    const before = served;
    const plain = await run(false);
    const streamed = await run(true);
    expect(served - before).toBe(4);
    expect(JSON.stringify(streamed.events)).toBe(JSON.stringify(plain.events));
    expect(streamed.deltas).toEqual(['All ', 'done', '.']);
    expect(streamed.chunks).toEqual(['All ', 'done', '.']);
    expect(streamed.agent.history().at(-1)).toMatchObject({ role: 'assistant', text: 'All done.' });
    const responded = plain.events.filter((event) => event.type === 'ModelResponded');
    expect(
      responded.map(
        (event) => (event.data as { response: { finishReason?: string } }).response.finishReason,
      ),
    ).toEqual(['toolCalls', 'stop']);
  });
});
