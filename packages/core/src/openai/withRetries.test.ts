import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import OpenAI from 'openai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Agent } from '../agent/agent.js';
import { CompletionError } from '../errors/completionError.js';
import type { CompletionRequest } from '../ports/chatCompletion.js';
import type { Logger } from '../ports/logger.js';
import { startChatCompletionsServer, type ServedAnswer } from '../testing/chatCompletionsServer.js';
import { createOpenAiChatCompletion } from './createOpenAiChatCompletion.js';

// Timeouts and retries of the OpenAI adapter through the real `openai` client, against local
// HTTP servers. Waits are event-driven; a duration is only ever bounded from above, far above
// what it takes, so a busy machine cannot fail these tests.

const apiKey = 'sk-test-DO-NOT-LEAK-4242';
const hello: CompletionRequest = { messages: [{ role: 'user', text: 'hi' }], tools: [] };

interface LogLine {
  readonly message: string;
  readonly details: Record<string, unknown> | undefined;
}

function capturedLogger(onLine: (line: LogLine) => void = () => {}) {
  const lines: LogLine[] = [];
  const logger: Logger = {
    warn: (message, details) => {
      const line = { message, details };
      lines.push(line);
      onLine(line);
    },
  };
  return { lines, logger };
}

/** A server that accepts every request and never answers it. */
async function startSilentServer() {
  let requests = 0;
  const server = createServer(() => {
    requests += 1;
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    host: `127.0.0.1:${port}`,
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests: () => requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const failure = (status: number, headers: Record<string, string> = {}): ServedAnswer => ({
  kind: 'failure',
  status,
  // A server that echoes the key and the Authorization header it got.
  body: JSON.stringify({
    error: { message: `failed ${status}; you sent Authorization: Bearer ${apiKey}` },
  }),
  headers,
});

const servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
  vi.restoreAllMocks();
});

async function served(script: readonly ServedAnswer[]) {
  const server = await startChatCompletionsServer(script);
  servers.push(server);
  return { ...server, host: new URL(server.baseURL).host };
}

describe('the OpenAI adapter times out and retries out loud', () => {
  it('a silent endpoint fails after maxRetries + 1 attempts, naming its host and the timeout', async () => {
    const server = await startSilentServer();
    servers.push(server);
    const { lines, logger } = capturedLogger();
    // Attempts are counted where they start: on a busy machine an attempt may time out before
    // the server has read its request.
    let attempts = 0;
    const countingFetch: typeof fetch = (input, init) => {
      attempts += 1;
      return fetch(input, init);
    };
    const model = createOpenAiChatCompletion({
      model: 'gpt-test',
      apiKey,
      baseURL: server.baseURL,
      fetch: countingFetch,
      timeout: 200,
      maxRetries: 1,
      logger,
    });
    const started = Date.now();
    const error = (await model.complete(hello, {}).catch((caught: unknown) => caught)) as Error;
    // Expected about 0.9 s (two 200 ms attempts and a backoff under 0.5 s): not 30 minutes.
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(error).toBeInstanceOf(CompletionError);
    expect(error).toMatchObject({ code: 'completionFailed', kind: 'network' });
    expect(error.message).toBe(`openai: no answer within 200 ms (${server.host}, 2 attempts)`);
    expect(error.cause).toBeInstanceOf(OpenAI.APIConnectionTimeoutError);
    expect(attempts).toBe(2);
    expect(server.requests()).toBeLessThanOrEqual(2);
    expect(lines).toHaveLength(1);
    expect(lines[0]?.message).toMatch(
      new RegExp(
        `^openai: attempt 1 of 2 to ${server.host} failed \\(no answer within 200 ms\\); retrying in \\d+ ms$`,
      ),
    );
    expect(lines[0]?.details).toMatchObject({
      model: 'gpt-test',
      endpoint: server.host,
      attempt: 1,
      attempts: 2,
      reason: 'timeout',
    });
    const { waitMs } = lines[0]?.details as { waitMs: number };
    expect(waitMs).toBeGreaterThanOrEqual(375);
    expect(waitMs).toBeLessThanOrEqual(500);
    expect(inspect([error, lines], { depth: Infinity, showHidden: true })).not.toContain(apiKey);
  });

  it('a 429 with retry-after-ms is logged once per retry with its reason and wait, then succeeds', async () => {
    const server = await served([
      failure(429, { 'retry-after-ms': '30' }),
      failure(429, { 'retry-after-ms': '20' }),
      { kind: 'answer', content: 'hello' },
    ]);
    const { lines, logger } = capturedLogger();
    const model = createOpenAiChatCompletion({
      model: 'gpt-test',
      apiKey,
      baseURL: server.baseURL,
    });
    await expect(model.complete(hello, { logger })).resolves.toMatchObject({ message: 'hello' });
    expect(server.requests).toHaveLength(3);
    expect(lines.map((line) => line.message)).toEqual([
      `openai: attempt 1 of 3 to ${server.host} failed (429 failed 429; you sent Authorization: Bearer [redacted]); retrying in 30 ms as retry-after-ms asks`,
      `openai: attempt 2 of 3 to ${server.host} failed (429 failed 429; you sent Authorization: Bearer [redacted]); retrying in 20 ms as retry-after-ms asks`,
    ]);
    expect(lines.map((line) => line.details)).toEqual([
      {
        model: 'gpt-test',
        endpoint: server.host,
        attempt: 1,
        attempts: 3,
        reason: 'status',
        status: 429,
        waitMs: 30,
      },
      {
        model: 'gpt-test',
        endpoint: server.host,
        attempt: 2,
        attempts: 3,
        reason: 'status',
        status: 429,
        waitMs: 20,
      },
    ]);
    const logged = inspect(lines, { depth: Infinity });
    expect(logged).not.toContain(apiKey);
    expect(logged).not.toMatch(/Bearer (?!\[redacted\])/);
  });

  it('a 500 beyond the retry limit fails clearly, after backoffs of 0.5 s and 1 s less jitter', async () => {
    const server = await served([failure(500), failure(500), failure(500)]);
    const { lines, logger } = capturedLogger();
    const model = createOpenAiChatCompletion({
      model: 'gpt-test',
      apiKey,
      baseURL: server.baseURL,
    });
    const error = (await model
      .complete(hello, { logger })
      .catch((caught: unknown) => caught)) as CompletionError;
    expect(error).toBeInstanceOf(CompletionError);
    expect(error).toMatchObject({ code: 'completionFailed', kind: 'serverError', status: 500 });
    expect(error.message).toBe(
      `openai: 500 failed 500; you sent Authorization: Bearer [redacted] (${server.host}, 3 attempts)`,
    );
    expect(server.requests).toHaveLength(3);
    expect(lines.map((line) => line.details?.['reason'])).toEqual(['status', 'status']);
    expect(lines.map((line) => line.details?.['status'])).toEqual([500, 500]);
    const [first, second] = lines.map((line) => line.details?.['waitMs'] as number);
    expect(first).toBeGreaterThanOrEqual(375);
    expect(first).toBeLessThanOrEqual(500);
    expect(second).toBeGreaterThanOrEqual(750);
    expect(second).toBeLessThanOrEqual(1000);
    expect(inspect([error, lines], { depth: Infinity, showHidden: true })).not.toContain(apiKey);
  });

  it('a stream is asked again until it begins', async () => {
    const server = await served([
      failure(503, { 'retry-after-ms': '1' }),
      { kind: 'answer', content: 'streamed hello' },
    ]);
    const { lines, logger } = capturedLogger();
    const model = createOpenAiChatCompletion({
      model: 'gpt-test',
      apiKey,
      baseURL: server.baseURL,
    });
    const deltas: string[] = [];
    const response = await model.complete(hello, {
      logger,
      onChunk: (delta) => void deltas.push(delta),
    });
    expect(response.message).toBe('streamed hello');
    expect(deltas.join('')).toBe('streamed hello');
    expect(server.requests.map((body) => body['stream'])).toEqual([true, true]);
    expect(lines.map((line) => line.details?.['status'])).toEqual([503]);
  });

  it('a 400, or a 5xx whose x-should-retry is false, is not retried', async () => {
    const server = await served([failure(400), failure(503, { 'x-should-retry': 'false' })]);
    const { lines, logger } = capturedLogger();
    const model = createOpenAiChatCompletion({
      model: 'gpt-test',
      apiKey,
      baseURL: server.baseURL,
    });
    await expect(model.complete(hello, { logger })).rejects.toMatchObject({ status: 400 });
    await expect(model.complete(hello, { logger })).rejects.toMatchObject({ status: 503 });
    expect(server.requests).toHaveLength(2);
    expect(lines).toEqual([]);
  });

  it('a retry-after over 60 s is not waited for: the rateLimited error carries it', async () => {
    const server = await served([failure(429, { 'retry-after': '120' })]);
    const { lines, logger } = capturedLogger();
    const model = createOpenAiChatCompletion({
      model: 'gpt-test',
      apiKey,
      baseURL: server.baseURL,
    });
    await expect(model.complete(hello, { logger })).rejects.toMatchObject({
      kind: 'rateLimited',
      retryAfterMs: 120_000,
    });
    expect(server.requests).toHaveLength(1);
    expect(lines.map((line) => line.message)).toEqual([
      `openai: ${server.host} answered 429 and asks to wait 120000 ms, longer than the 60000 ms the adapter waits; not retried`,
    ]);
  });

  it('an abort during the wait before a retry rejects with its reason at once', async () => {
    const server = await served([failure(429, { 'retry-after-ms': '60000' })]);
    const controller = new AbortController();
    const reason = new Error('the user cancelled');
    const { logger } = capturedLogger(() => controller.abort(reason));
    const model = createOpenAiChatCompletion({
      model: 'gpt-test',
      apiKey,
      baseURL: server.baseURL,
    });
    const started = Date.now();
    await expect(model.complete(hello, { logger, signal: controller.signal })).rejects.toBe(reason);
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(server.requests).toHaveLength(1);
  });

  it("each retry goes to the agent's logger, with the stream id", async () => {
    const server = await served([
      failure(500, { 'retry-after-ms': '1' }),
      { kind: 'answer', content: 'hello' },
    ]);
    const { lines, logger } = capturedLogger();
    const agent = await Agent.builder()
      .llm(createOpenAiChatCompletion({ model: 'gpt-test', apiKey, baseURL: server.baseURL }))
      .logger(logger)
      .streamId('retried')
      .build();
    await agent.query('hi');
    expect(agent.history().at(-1)).toMatchObject({ role: 'assistant', text: 'hello' });
    expect(lines).toHaveLength(1);
    expect(lines[0]?.details).toMatchObject({ streamId: 'retried', status: 500, waitMs: 1 });
  });

  it("the adapter's own logger wins over the caller's; without either, console.warn", async () => {
    const script: ServedAnswer[] = [
      failure(500, { 'retry-after-ms': '1' }),
      { kind: 'answer', content: 'ok' },
    ];
    const own = capturedLogger();
    const callers = capturedLogger();
    const first = await served(script);
    const withOwn = createOpenAiChatCompletion({
      model: 'gpt-test',
      apiKey,
      baseURL: first.baseURL,
      logger: own.logger,
    });
    await withOwn.complete(hello, { logger: callers.logger });
    expect(own.lines).toHaveLength(1);
    expect(callers.lines).toEqual([]);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const second = await served(script);
    const bare = createOpenAiChatCompletion({ model: 'gpt-test', apiKey, baseURL: second.baseURL });
    await bare.complete(hello, {});
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toMatch(/^\[agentlog\] openai: attempt 1 of 3 to /);
  });
});

describe("the OpenAI adapter's timeout and maxRetries options", () => {
  /** A fetch that records the X-Stainless-Timeout header the SDK sends (whole seconds). */
  function timeoutHeaderFetch() {
    const seen: (string | null)[] = [];
    const fetch = (_input: string | URL | Request, init?: RequestInit) => {
      seen.push(new Headers(init?.headers).get('x-stainless-timeout'));
      return Promise.resolve(
        new Response(
          JSON.stringify({
            id: 'chatcmpl-1',
            object: 'chat.completion',
            created: 0,
            model: 'gpt-test',
            choices: [
              {
                index: 0,
                finish_reason: 'stop',
                logprobs: null,
                message: { role: 'assistant', content: 'ok', refusal: null },
              },
            ],
          }),
          { headers: { 'content-type': 'application/json' } },
        ),
      );
    };
    return { seen, fetch };
  }

  it('default to 60 s per attempt, also for an injected client, and take their own values', async () => {
    const plain = timeoutHeaderFetch();
    await createOpenAiChatCompletion({ model: 'gpt-test', apiKey, fetch: plain.fetch }).complete(
      hello,
      {},
    );
    const injected = timeoutHeaderFetch();
    const client = new OpenAI({ apiKey, fetch: injected.fetch });
    await createOpenAiChatCompletion({ model: 'gpt-test', client }).complete(hello, {});
    await createOpenAiChatCompletion({
      model: 'gpt-test',
      client,
      timeout: 5_000,
      maxRetries: 0,
    }).complete(hello, {});
    expect([...plain.seen, ...injected.seen]).toEqual(['60', '60', '5']);
  });

  it.each([
    ['timeout', 0],
    ['timeout', 1.5],
    ['timeout', Number.NaN],
    ['maxRetries', -1],
    ['maxRetries', 0.5],
  ] as const)('refuse %s %d as invalidConfiguration', (name, value) => {
    expect(() => createOpenAiChatCompletion({ model: 'gpt-test', apiKey, [name]: value })).toThrow(
      expect.objectContaining({
        code: 'invalidConfiguration',
        message: expect.stringContaining(`openai: ${name} must be a whole number`) as unknown,
      }),
    );
  });
});
