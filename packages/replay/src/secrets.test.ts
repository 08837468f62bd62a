import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, createInMemoryEventStore, tool } from '@agentlog/core';
import { createOpenAiChatCompletion } from '@agentlog/core/openai';
import { counterIds, fixedClock } from '@agentlog/core/testing';
import { writeJsonl } from '@agentlog/store';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createRecordingModel } from './createRecordingModel.js';
import { redactSecrets } from './redactSecrets.js';

const FAKE_KEY = 'sk-test-DO-NOT-LEAK-7f3a9c21e5';

/** A fake OpenAI endpoint: answers with a tool call, then with text; remembers the headers. */
function fakeOpenAi(): { fetch: typeof fetch; authorization: string[] } {
  const authorization: string[] = [];
  const answers = [
    {
      message: {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'call_1',
            type: 'function',
            function: { name: 'login', arguments: '{"user":"ana","password":"hunter2"}' },
          },
        ],
      },
    },
    { message: { role: 'assistant', content: 'Logged in.' } },
  ];
  const fake = (_input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    authorization.push(new Headers(init?.headers).get('authorization') ?? '');
    const choice = answers[Math.min(authorization.length, answers.length) - 1];
    const body = {
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 0,
      model: 'gpt-test',
      choices: [{ index: 0, finish_reason: 'stop', ...choice }],
    };
    return Promise.resolve(
      new Response(JSON.stringify(body), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      }),
    );
  };
  return { fetch: fake, authorization };
}

describe('secrets in recordings', () => {
  it('RPL-3 a session recorded through a model with an API key holds neither the key nor the authorisation header', async () => {
    const endpoint = fakeOpenAi();
    const model = createRecordingModel(
      createOpenAiChatCompletion({
        model: 'gpt-test',
        apiKey: FAKE_KEY,
        fetch: endpoint.fetch,
        maxRetries: 0,
      }),
      { secretFields: ['password'] },
    );
    const store = createInMemoryEventStore();
    const login = tool({
      name: 'login',
      description: 'Logs in.',
      parameters: z.object({ user: z.string(), password: z.string() }),
      execute: ({ user }) => `logged in as ${user}`,
    });
    const agent = await Agent.builder()
      .llm(model)
      .tools([login])
      .store(store)
      .streamId('secrets')
      .clock(fixedClock())
      .ids(counterIds())
      .build();
    await agent.query('Log in as ana');
    // The key did reach the server (so the check below is not vacuous)…
    expect(endpoint.authorization).toEqual([`Bearer ${FAKE_KEY}`, `Bearer ${FAKE_KEY}`]);

    // …but nothing that is written down holds it.
    const dir = await mkdtemp(join(tmpdir(), 'agentlog-secrets-'));
    // Exports and fixtures go through redactSecrets, as the fixture recorder does.
    await writeJsonl(
      join(dir, 'session.jsonl'),
      redactSecrets(await store.readStream('secrets'), ['password']),
    );
    const written = [
      await readFile(join(dir, 'session.jsonl'), 'utf8'),
      JSON.stringify(model.exchanges()),
      JSON.stringify(model),
    ];
    for (const text of written) {
      expect(text).not.toContain(FAKE_KEY);
      expect(text.toLowerCase()).not.toContain('bearer');
    }
    // A field marked secret is redacted in the recording, while the agent got the real value.
    expect(written[0]).not.toContain('hunter2');
    expect(JSON.stringify(model.exchanges())).not.toContain('hunter2');
    expect(JSON.stringify(model.exchanges())).toContain('[redacted]');
    expect(agent.history().find((message) => message.role === 'tool')).toMatchObject({
      output: { text: 'logged in as ana' },
    });
  });

  it('RPL-3 redactSecrets masks secret keys at any depth and keys or tokens inside text', () => {
    const redacted = redactSecrets(
      {
        headers: { Authorization: 'Bearer abc.def.ghi', 'X-Api-Key': 'k' },
        nested: [
          {
            apiKey: 'x',
            note: `key is ${FAKE_KEY}`,
            safe: 'keep me',
            args: '{"password":"p","n":1}',
          },
        ],
        custom: { pin: '1234' },
      },
      ['pin'],
    );
    expect(redacted).toEqual({
      headers: { Authorization: '[redacted]', 'X-Api-Key': '[redacted]' },
      nested: [
        {
          apiKey: '[redacted]',
          note: 'key is [redacted]',
          safe: 'keep me',
          args: '{"password":"[redacted]","n":1}',
        },
      ],
      custom: { pin: '[redacted]' },
    });
  });

  it('RPL-3 redactSecrets masks given secret values of any shape, in text, keys and JSON text', () => {
    const opaque = '9c2f4e6a8b0d1f3e5a7c9e1b3d5f7a9c';
    const redacted = redactSecrets(
      {
        text: `the key ${opaque} twice ${opaque}`,
        args: `{"q": "${opaque}", "n": 1}`,
        [opaque]: 'as a key',
        short: 'x marks the spot',
      },
      [],
      [opaque, 'x'],
    );
    expect(redacted).toEqual({
      text: 'the key [redacted] twice [redacted]',
      args: '{"q":"[redacted]","n":1}',
      '[redacted]': 'as a key',
      // Values shorter than MIN_SECRET_LENGTH are no real keys: they are left alone.
      short: 'x marks the spot',
    });
  });

  it('RPL-3 redactSecrets keeps JSON text in which nothing is secret as it was written', () => {
    expect(redactSecrets({ args: '{"q": "x",  "n": 1}' })).toEqual({
      args: '{"q": "x",  "n": 1}',
    });
  });
});
