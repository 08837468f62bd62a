import { inspect } from 'node:util';
import OpenAI, { AuthenticationError } from 'openai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isAgentlogError } from '../errors/agentlogError.js';
import { ToolOutput } from '../messages/toolOutput.js';
import type { CompletionRequest } from '../ports/chatCompletion.js';
import { CompletionError } from '../errors/completionError.js';
import { createOpenAiChatCompletion } from './createOpenAiChatCompletion.js';

const apiKey = 'sk-test-DO-NOT-LEAK-123';

interface RecordedRequest {
  readonly url: string;
  readonly method: string;
  readonly headers: Headers;
  readonly body: unknown;
  readonly signal: AbortSignal | undefined;
}

type Reply = (request: RecordedRequest) => Response | Promise<Response>;

/** A fetch that records every request and answers with `replies` in order (the last repeats). */
function fakeFetch(...replies: Reply[]): { fetch: typeof fetch; requests: RecordedRequest[] } {
  const requests: RecordedRequest[] = [];
  const fake = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const request: RecordedRequest = {
      url: input instanceof Request ? input.url : String(input),
      method: init?.method ?? 'GET',
      headers: new Headers(init?.headers),
      body: typeof init?.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined,
      signal: init?.signal ?? undefined,
    };
    requests.push(request);
    const reply = replies[Math.min(requests.length, replies.length) - 1];
    if (reply === undefined) throw new Error('fake fetch: no reply');
    return reply(request);
  };
  return { fetch: fake, requests };
}

function json(body: unknown, status = 200, headers: Record<string, string> = {}): Reply {
  return () =>
    new Response(JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json', ...headers },
    });
}

/** An SSE response whose bytes arrive in pieces cut at arbitrary places. */
function sse(events: readonly unknown[], pieceLength = 7): Reply {
  const text =
    events.map((event) => `data: ${JSON.stringify(event)}\n\n`).join('') + 'data: [DONE]\n\n';
  return () => {
    const bytes = new TextEncoder().encode(text);
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < bytes.length; at += pieceLength) {
          controller.enqueue(bytes.slice(at, at + pieceLength));
        }
        controller.close();
      },
    });
    return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
  };
}

/** A reply that never comes: it rejects once the request's signal aborts. */
const hang: Reply = (request) =>
  new Promise<Response>((_, reject) => {
    request.signal?.addEventListener('abort', () => {
      reject(new DOMException('This operation was aborted', 'AbortError'));
    });
  });

function completion(message: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 0,
    model: 'gpt-test-2025',
    choices: [
      {
        index: 0,
        finish_reason: 'stop',
        logprobs: null,
        message: { role: 'assistant', content: null, refusal: null, ...message },
      },
    ],
    ...extra,
  };
}

function chunk(delta: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 0,
    model: 'gpt-test-2025',
    choices: [{ index: 0, delta, finish_reason: null }],
    ...extra,
  };
}

const searchParameters = {
  type: 'object',
  properties: { q: { type: 'string' } },
  required: ['q'],
  additionalProperties: false,
};

const request: CompletionRequest = {
  messages: [
    { role: 'system', text: 'be brief' },
    { role: 'user', text: 'find x' },
    { role: 'assistant', toolCalls: [{ id: 'call_1', name: 'search', args: '{"q":"x"}' }] },
    {
      role: 'tool',
      toolCall: { id: 'call_1', name: 'search', args: '{"q":"x"}' },
      output: ToolOutput.text('no results'),
    },
  ],
  tools: [{ name: 'search', description: 'Searches.', parameters: searchParameters }],
};

const hello: CompletionRequest = { messages: [{ role: 'user', text: 'hi' }], tools: [] };

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('createOpenAiChatCompletion()', () => {
  it('sends the mapped messages and strict tools as the exact JSON body', async () => {
    const { fetch, requests } = fakeFetch(json(completion({ content: 'none found' })));
    const model = createOpenAiChatCompletion({ model: 'gpt-test', apiKey, fetch, temperature: 0 });
    await model.complete(request, {});
    expect(requests).toHaveLength(1);
    expect(requests[0]?.method).toBe('POST');
    expect(requests[0]?.url).toBe('https://api.openai.com/v1/chat/completions');
    expect(requests[0]?.body).toStrictEqual({
      model: 'gpt-test',
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'find x' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_1',
              type: 'function',
              function: { name: 'search', arguments: '{"q":"x"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'no results' },
      ],
      tools: [
        {
          type: 'function',
          function: {
            name: 'search',
            description: 'Searches.',
            parameters: searchParameters,
            strict: true,
          },
        },
      ],
      temperature: 0,
    });
  });

  it('leaves tools and temperature out when there are none', async () => {
    const { fetch, requests } = fakeFetch(json(completion({ content: 'hello' })));
    await createOpenAiChatCompletion({ model: 'gpt-test', apiKey, fetch }).complete(hello, {});
    expect(requests[0]?.body).toStrictEqual({
      model: 'gpt-test',
      messages: [{ role: 'user', content: 'hi' }],
    });
  });

  it('maps the response: text, several tool calls, usage and model', async () => {
    const { fetch } = fakeFetch(
      json(
        completion(
          {
            content: 'searching',
            tool_calls: [
              { id: 'c1', type: 'function', function: { name: 'search', arguments: '{"q":"a"}' } },
              { id: 'c2', type: 'function', function: { name: 'search', arguments: '{"q":"b"}' } },
            ],
          },
          { usage: { prompt_tokens: 12, completion_tokens: 8, total_tokens: 20 } },
        ),
      ),
    );
    const model = createOpenAiChatCompletion({ model: 'gpt-test', apiKey, fetch });
    expect(model.model).toBe('gpt-test');
    await expect(model.complete(request, {})).resolves.toStrictEqual({
      message: 'searching',
      toolCalls: [
        { id: 'c1', name: 'search', args: '{"q":"a"}' },
        { id: 'c2', name: 'search', args: '{"q":"b"}' },
      ],
      usage: { promptTokens: 12, completionTokens: 8, totalTokens: 20 },
      model: 'gpt-test-2025',
      finishReason: 'stop',
    });
  });

  it('fails with completionFailed when the response has no choices', async () => {
    const { fetch } = fakeFetch(json({ ...completion({}), choices: [] }));
    const model = createOpenAiChatCompletion({ model: 'gpt-test', apiKey, fetch });
    await expect(model.complete(hello, {})).rejects.toMatchObject({
      code: 'completionFailed',
      message: 'openai: the response has no choices',
    });
  });

  it('streams: accumulates text and fragmented tool-call arguments, calls onChunk per delta', async () => {
    const { fetch, requests } = fakeFetch(
      sse([
        chunk({ role: 'assistant', content: '' }),
        chunk({ content: 'Let me ' }),
        chunk({ content: 'look.' }),
        chunk({
          tool_calls: [
            { index: 0, id: 'c1', type: 'function', function: { name: 'search', arguments: '' } },
          ],
        }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: '{"q"' } }] }),
        chunk({
          tool_calls: [
            { index: 1, id: 'c2', type: 'function', function: { name: 'now', arguments: '{' } },
          ],
        }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: ':"x"}' } }] }),
        chunk({ tool_calls: [{ index: 1, function: { arguments: '}' } }] }),
        chunk({}, { choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] }),
        chunk(
          {},
          { choices: [], usage: { prompt_tokens: 9, completion_tokens: 4, total_tokens: 13 } },
        ),
      ]),
    );
    const deltas: string[] = [];
    const model = createOpenAiChatCompletion({ model: 'gpt-test', apiKey, fetch });
    const response = await model.complete(request, { onChunk: (delta) => deltas.push(delta) });
    expect(deltas).toEqual(['Let me ', 'look.']);
    expect(response).toStrictEqual({
      message: 'Let me look.',
      toolCalls: [
        { id: 'c1', name: 'search', args: '{"q":"x"}' },
        { id: 'c2', name: 'now', args: '{}' },
      ],
      usage: { promptTokens: 9, completionTokens: 4, totalTokens: 13 },
      model: 'gpt-test-2025',
      finishReason: 'toolCalls',
    });
    expect(requests[0]?.body).toMatchObject({
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('streams when stream is true even without onChunk, and not when it is false', async () => {
    const streamed = fakeFetch(
      sse([
        chunk({ content: 'hi' }),
        chunk({}, { choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] }),
      ]),
    );
    const streaming = createOpenAiChatCompletion({
      model: 'gpt-test',
      apiKey,
      fetch: streamed.fetch,
      stream: true,
    });
    await expect(streaming.complete(hello, {})).resolves.toMatchObject({ message: 'hi' });
    expect(streamed.requests[0]?.body).toMatchObject({ stream: true });

    const plain = fakeFetch(json(completion({ content: 'hi' })));
    const deltas: string[] = [];
    const notStreaming = createOpenAiChatCompletion({
      model: 'gpt-test',
      apiKey,
      fetch: plain.fetch,
      stream: false,
    });
    await notStreaming.complete(hello, { onChunk: (delta) => deltas.push(delta) });
    expect(plain.requests[0]?.body).not.toHaveProperty('stream');
    expect(deltas).toEqual([]);
  });

  it.each([
    [401, 'Incorrect API key provided'],
    [429, 'Rate limit reached'],
    [500, 'The server had an error'],
  ])('turns HTTP %i into completionFailed with the status', async (status, text) => {
    const { fetch } = fakeFetch(
      json({ error: { message: text, type: 'error', code: null } }, status),
    );
    const model = createOpenAiChatCompletion({ model: 'gpt-test', apiKey, fetch, maxRetries: 0 });
    const error: unknown = await model.complete(hello, {}).catch((caught: unknown) => caught);
    expect(isAgentlogError(error)).toBe(true);
    expect(error).toMatchObject({ code: 'completionFailed', message: `openai: ${status} ${text}` });
    expect((error as Error).cause).toBeInstanceOf(OpenAI.APIError);
    expect((error as Error).cause).toMatchObject({ status });
  });

  it('retries as maxRetries allows, and logs the retry', async () => {
    const { fetch, requests } = fakeFetch(
      json({ error: { message: 'busy' } }, 500, { 'retry-after-ms': '1' }),
      json(completion({ content: 'hello' })),
    );
    const model = createOpenAiChatCompletion({ model: 'gpt-test', apiKey, fetch, maxRetries: 1 });
    const warn = vi.fn();
    await expect(model.complete(hello, { logger: { warn } })).resolves.toMatchObject({
      message: 'hello',
    });
    expect(requests).toHaveLength(2);
    expect(requests.map((sent) => sent.headers.get('x-stainless-retry-count'))).toEqual(['0', '1']);
    expect(warn).toHaveBeenCalledExactlyOnceWith(
      'openai: attempt 1 of 2 to api.openai.com failed (500 busy); retrying in 1 ms as retry-after-ms asks',
      expect.objectContaining({ status: 500, waitMs: 1 }),
    );
  });

  it('turns a connection failure into completionFailed naming the endpoint', async () => {
    const fetch = (() => Promise.reject(new TypeError('fetch failed'))) as typeof globalThis.fetch;
    const model = createOpenAiChatCompletion({ model: 'gpt-test', apiKey, fetch, maxRetries: 0 });
    await expect(model.complete(hello, {})).rejects.toMatchObject({
      code: 'completionFailed',
      message: 'openai: Connection error. (api.openai.com, 1 attempt)',
    });
  });

  it('LOOP-12 a failed completion is completionFailed with a kind, the status and retryAfterMs', async () => {
    const cases = [
      [401, {}, 'authentication', undefined],
      [403, {}, 'authentication', undefined],
      [429, { 'retry-after': '2' }, 'rateLimited', 2000],
      [429, { 'retry-after-ms': '350' }, 'rateLimited', 350],
      [400, {}, 'badRequest', undefined],
      [422, {}, 'badRequest', undefined],
      [500, {}, 'serverError', undefined],
      [503, {}, 'serverError', undefined],
    ] as const;
    for (const [status, headers, kind, retryAfterMs] of cases) {
      const { fetch } = fakeFetch(
        json({ error: { message: `failed ${status}` } }, status, headers),
      );
      const model = createOpenAiChatCompletion({ model: 'gpt-test', apiKey, fetch, maxRetries: 0 });
      const error = await model.complete(hello, {}).catch((caught: unknown) => caught);
      expect(error, `${status}`).toBeInstanceOf(CompletionError);
      expect(error).toMatchObject({ code: 'completionFailed', kind, status });
      expect((error as CompletionError).retryAfterMs).toBe(retryAfterMs);
      expect((error as Error).message).toBe(`openai: ${status} failed ${status}`);
    }
    const down = (() => Promise.reject(new TypeError('fetch failed'))) as typeof globalThis.fetch;
    const offline = createOpenAiChatCompletion({
      model: 'gpt-test',
      apiKey,
      fetch: down,
      maxRetries: 0,
    });
    await expect(offline.complete(hello, {})).rejects.toMatchObject({ kind: 'network' });
    const empty = fakeFetch(json({ ...completion({}), choices: [] }));
    const noChoices = createOpenAiChatCompletion({ model: 'gpt-test', apiKey, fetch: empty.fetch });
    await expect(noChoices.complete(hello, {})).rejects.toMatchObject({ kind: 'badResponse' });
  });

  it("LOOP-12 sends every setting, the request's own over the adapter's, extraBody as it is", async () => {
    const { fetch, requests } = fakeFetch(
      json(completion({ content: 'ok' })),
      json(completion({ content: 'ok' })),
    );
    const model = createOpenAiChatCompletion({
      model: 'o4-mini',
      apiKey,
      fetch,
      maxCompletionTokens: 2000,
      reasoningEffort: 'low',
      parallelToolCalls: false,
      toolChoice: 'required',
      seed: 7,
      temperature: undefined,
      extraBody: { service_tier: 'flex' },
    });
    await model.complete(request, {});
    expect(requests[0]?.body).toMatchObject({
      max_completion_tokens: 2000,
      reasoning_effort: 'low',
      parallel_tool_calls: false,
      tool_choice: 'required',
      seed: 7,
      service_tier: 'flex',
    });
    expect(requests[0]?.body).not.toHaveProperty('temperature');
    await model.complete(
      {
        ...request,
        settings: {
          maxCompletionTokens: 50,
          toolChoice: { name: 'search' },
          extraBody: { metadata: { run: 'r1' } },
        },
      },
      {},
    );
    expect(requests[1]?.body).toMatchObject({
      max_completion_tokens: 50,
      reasoning_effort: 'low',
      tool_choice: { type: 'function', function: { name: 'search' } },
      service_tier: 'flex',
      metadata: { run: 'r1' },
    });
    // Tool settings go only with tools.
    const bare = fakeFetch(json(completion({ content: 'ok' })));
    await createOpenAiChatCompletion({
      model: 'm',
      apiKey,
      fetch: bare.fetch,
      toolChoice: 'auto',
    }).complete(hello, {});
    expect(bare.requests[0]?.body).not.toHaveProperty('tool_choice');
  });

  it('honours baseURL (any OpenAI-compatible gateway)', async () => {
    const { fetch, requests } = fakeFetch(json(completion({ content: 'hello' })));
    const model = createOpenAiChatCompletion({
      model: 'llama3',
      apiKey,
      baseURL: 'http://gateway.test:8080/v1',
      fetch,
    });
    await model.complete(hello, {});
    expect(requests[0]?.url).toBe('http://gateway.test:8080/v1/chat/completions');
  });

  it('uses OPENAI_API_KEY when no apiKey is given', async () => {
    vi.stubEnv('OPENAI_API_KEY', 'sk-from-env');
    const { fetch, requests } = fakeFetch(json(completion({ content: 'hello' })));
    await createOpenAiChatCompletion({ model: 'gpt-test', fetch }).complete(hello, {});
    expect(requests[0]?.headers.get('authorization')).toBe('Bearer sk-from-env');
  });

  it('fails with invalidConfiguration without any API key', () => {
    vi.stubEnv('OPENAI_API_KEY', '');
    expect(() => createOpenAiChatCompletion({ model: 'gpt-test' })).toThrow(
      expect.objectContaining({ code: 'invalidConfiguration' }),
    );
  });

  it('uses an injected client, and refuses connection options beside it', async () => {
    const { fetch, requests } = fakeFetch(json(completion({ content: 'hello' })));
    const client = new OpenAI({ apiKey, fetch, baseURL: 'http://injected.test/v1' });
    const model = createOpenAiChatCompletion({ model: 'gpt-test', client });
    await expect(model.complete(hello, {})).resolves.toMatchObject({ message: 'hello' });
    expect(requests[0]?.url).toBe('http://injected.test/v1/chat/completions');
    expect(() => createOpenAiChatCompletion({ model: 'gpt-test', client, apiKey })).toThrow(
      expect.objectContaining({ code: 'invalidConfiguration' }),
    );
  });

  it('rejects with the reason when the signal aborts a pending request', async () => {
    const { fetch, requests } = fakeFetch(hang);
    const model = createOpenAiChatCompletion({ model: 'gpt-test', apiKey, fetch, maxRetries: 0 });
    const controller = new AbortController();
    const reason = new Error('the user cancelled');
    const pending = model.complete(hello, { signal: controller.signal });
    await vi.waitFor(() => expect(requests).toHaveLength(1));
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
  });

  it('rejects at once for an already aborted signal, without a request', async () => {
    const { fetch, requests } = fakeFetch(json(completion({ content: 'hello' })));
    const model = createOpenAiChatCompletion({ model: 'gpt-test', apiKey, fetch });
    await expect(model.complete(hello, { signal: AbortSignal.abort() })).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(requests).toHaveLength(0);
  });

  it('rejects with the reason when the signal aborts a stream midway', async () => {
    const controller = new AbortController();
    const reason = new Error('stop streaming');
    const endless: Reply = (recorded) => {
      const body = new ReadableStream<Uint8Array>({
        start(stream) {
          stream.enqueue(
            new TextEncoder().encode(`data: ${JSON.stringify(chunk({ content: 'a' }))}\n\n`),
          );
          recorded.signal?.addEventListener('abort', () => {
            stream.error(new DOMException('This operation was aborted', 'AbortError'));
          });
        },
      });
      return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
    };
    const { fetch } = fakeFetch(endless);
    const model = createOpenAiChatCompletion({ model: 'gpt-test', apiKey, fetch });
    const pending = model.complete(hello, {
      signal: controller.signal,
      onChunk: () => controller.abort(reason),
    });
    await expect(pending).rejects.toBe(reason);
  });
});

describe('createOpenAiChatCompletion() never leaks the API key', () => {
  it('RPL-3 the adapter serialises and prints without the key', () => {
    const model = createOpenAiChatCompletion({ model: 'gpt-test', apiKey });
    expect(JSON.stringify(model)).toBe('{"model":"gpt-test"}');
    expect(JSON.stringify(model)).not.toContain(apiKey);
    expect(inspect(model, { depth: 10, showHidden: true })).not.toContain(apiKey);
    expect(Object.values(model).map(String).join(' ')).not.toContain(apiKey);
  });

  it('RPL-3 an injected client keeps its key hidden too', () => {
    const model = createOpenAiChatCompletion({
      model: 'gpt-test',
      client: new OpenAI({ apiKey }),
    });
    expect(JSON.stringify(model)).not.toContain(apiKey);
    expect(inspect(model, { depth: 10, showHidden: true })).not.toContain(apiKey);
  });

  it.each([401, 429, 500])(
    'RPL-3 an HTTP %i error that echoes the key has it redacted from message and cause',
    async (status) => {
      const echoed = `Incorrect API key provided: ${apiKey}; header Authorization: Bearer ${apiKey}`;
      const { fetch } = fakeFetch(
        json({ error: { message: echoed, type: 'invalid_request_error', code: 'x' } }, status),
      );
      const model = createOpenAiChatCompletion({ model: 'gpt-test', apiKey, fetch, maxRetries: 0 });
      const error = (await model.complete(hello, {}).catch((caught: unknown) => caught)) as Error;
      expect(error).toMatchObject({ code: 'completionFailed' });
      expect(error.message).toContain(`openai: ${status} Incorrect API key provided: [redacted]`);
      expect(error.message).not.toContain(apiKey);
      expect(String(error.stack)).not.toContain(apiKey);
      expect(JSON.stringify(error)).not.toContain(apiKey);
      const cause = error.cause as InstanceType<typeof OpenAI.APIError>;
      expect(cause).toBeInstanceOf(OpenAI.APIError);
      expect(cause.status).toBe(status);
      expect(String(cause)).not.toContain(apiKey);
      expect(JSON.stringify(cause.error)).not.toContain(apiKey);
      expect(inspect(error, { depth: 10 })).not.toContain(apiKey);
    },
  );

  it('RPL-3 a 401 keeps its AuthenticationError class after redaction', async () => {
    const { fetch } = fakeFetch(json({ error: { message: `bad key ${apiKey}` } }, 401));
    const model = createOpenAiChatCompletion({ model: 'gpt-test', apiKey, fetch, maxRetries: 0 });
    const error = (await model.complete(hello, {}).catch((caught: unknown) => caught)) as Error;
    expect(error.message).toBe('openai: 401 bad key [redacted]');
    expect(error.cause).toBeInstanceOf(AuthenticationError);
  });

  it('RPL-3 a failing fetch that mentions the key has it redacted', async () => {
    const fetch = (() =>
      Promise.reject(new Error(`proxy refused Bearer ${apiKey}`))) as typeof globalThis.fetch;
    const model = createOpenAiChatCompletion({ model: 'gpt-test', apiKey, fetch, maxRetries: 0 });
    const error = (await model.complete(hello, {}).catch((caught: unknown) => caught)) as Error;
    expect(error).toMatchObject({ code: 'completionFailed' });
    expect(inspect(error, { depth: 10 })).not.toContain(apiKey);
  });

  it('RPL-3 secrets() gives the key from apiKey, OPENAI_API_KEY or an injected client, not enumerable', () => {
    expect(createOpenAiChatCompletion({ model: 'gpt-test', apiKey }).secrets()).toEqual([apiKey]);
    vi.stubEnv('OPENAI_API_KEY', 'sk-from-env-0123456789');
    const fromEnv = createOpenAiChatCompletion({ model: 'gpt-test' });
    expect(fromEnv.secrets()).toEqual(['sk-from-env-0123456789']);
    const injectedClient = createOpenAiChatCompletion({
      model: 'gpt-test',
      client: new OpenAI({ apiKey: 'opaque-injected-key-42' }),
    });
    expect(injectedClient.secrets()).toEqual(['opaque-injected-key-42']);
    expect(Object.keys(fromEnv)).toEqual(['model', 'complete']);
    expect(Object.getOwnPropertyDescriptor(fromEnv, 'secrets')?.enumerable).toBe(false);
    expect(JSON.stringify(fromEnv)).not.toContain('sk-from-env');
  });

  it('RPL-3 an opaque key echoed in the response headers and body is masked in the whole cause', async () => {
    const opaque = '0f1e2d3c4b5a69788796a5b4c3d2e1f0';
    const { fetch } = fakeFetch(
      json({ error: { message: `bad key ${opaque}`, param: opaque } }, 401, {
        'x-request-id': 'req_1',
        'x-echo-key': opaque,
        'www-authenticate': `Bearer realm="${opaque}"`,
        'set-cookie': `session=${opaque}`,
      }),
    );
    const model = createOpenAiChatCompletion({
      model: 'gpt-test',
      apiKey: opaque,
      fetch,
      maxRetries: 0,
    });
    const error = (await model.complete(hello, {}).catch((caught: unknown) => caught)) as Error;
    expect(error.message).toBe('openai: 401 bad key [redacted]');
    expect(inspect(error, { depth: Infinity, showHidden: true })).not.toContain(opaque);
    const cause = error.cause as InstanceType<typeof OpenAI.APIError>;
    expect(cause).toBeInstanceOf(AuthenticationError);
    expect(cause.requestID).toBe('req_1');
    expect(cause.error).toEqual({ message: 'bad key [redacted]', param: '[redacted]' });
    expect(cause.headers?.get('x-echo-key')).toBe('[redacted]');
    expect(cause.headers?.get('set-cookie')).toBe('[redacted]');
  });

  it('RPL-3 a connection error keeps its nested cause, masked', async () => {
    const fetch = (() =>
      Promise.reject(
        new TypeError('fetch failed', {
          cause: Object.assign(new Error(`proxy said ${apiKey}`), { code: 'ECONNRESET' }),
        }),
      )) as typeof globalThis.fetch;
    const model = createOpenAiChatCompletion({ model: 'gpt-test', apiKey, fetch, maxRetries: 0 });
    const error = (await model.complete(hello, {}).catch((caught: unknown) => caught)) as Error;
    expect(error.message).toBe('openai: Connection error. (api.openai.com, 1 attempt)');
    expect(inspect(error, { depth: Infinity, showHidden: true })).not.toContain(apiKey);
    const sdk = error.cause as Error;
    expect(sdk).toBeInstanceOf(OpenAI.APIConnectionError);
    expect(sdk.cause).toMatchObject({ name: 'TypeError', message: 'fetch failed' });
    expect((sdk.cause as Error).cause).toMatchObject({
      message: 'proxy said [redacted]',
      code: 'ECONNRESET',
    });
  });

  it('RPL-3 the missing-key error does not print any key', () => {
    vi.stubEnv('OPENAI_API_KEY', '');
    expect(() => createOpenAiChatCompletion({ model: 'gpt-test' })).toThrow(
      /no API key; pass apiKey or set OPENAI_API_KEY/,
    );
  });
});
