import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { Agent, createInMemoryEventStore, tool, type ChatCompletion } from '@agentlog/core';
import { createOpenAiChatCompletion } from '@agentlog/core/openai';
import { counterIds, fixedClock, scriptedModel, textResponse } from '@agentlog/core/testing';
import { createSqliteEventStore, writeJsonl } from '@agentlog/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createRecordingModel, type RecordingModel } from './createRecordingModel.js';
import { runCliIn } from '../../cli/src/test/runCliIn.js';

/** A fake OpenAI server over real HTTP that echoes the caller's key wherever a server could. */
interface EchoServer {
  readonly baseURL: string;
  /** The keys it received in `Authorization: Bearer …`, one per request. */
  readonly received: string[];
  /** When set, every request fails with a 401 whose JSON message holds the key. */
  failing: boolean;
  close(): Promise<void>;
}

async function echoServer(): Promise<EchoServer> {
  const received: string[] = [];
  const state = { failing: false };
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    let text = '';
    request.setEncoding('utf8');
    request.on('data', (piece: string) => (text += piece));
    request.on('end', () => {
      const key = (request.headers.authorization ?? '').replace(/^Bearer\s+/i, '');
      received.push(key);
      const body = JSON.parse(text) as { messages: { role: string }[] };
      const headers = {
        'content-type': 'application/json',
        'x-request-id': `req_${received.length}`,
        // A careless gateway echoes the credentials it got.
        'x-echo-api-key': key,
        'x-echo-authorization': `Bearer ${key}`,
      };
      if (state.failing) {
        response.writeHead(401, headers);
        response.end(
          JSON.stringify({
            error: {
              message: `Incorrect API key provided: ${key}. You sent Authorization: Bearer ${key}`,
              type: 'invalid_request_error',
              param: key,
              code: 'invalid_api_key',
            },
          }),
        );
        return;
      }
      const afterTool = body.messages.at(-1)?.role === 'tool';
      const message = afterTool
        ? { role: 'assistant', content: 'Done.' }
        : {
            role: 'assistant',
            content: `Your key is ${key}, I will echo it.`,
            tool_calls: [
              {
                id: 'call_1',
                type: 'function',
                function: { name: 'echo', arguments: JSON.stringify({ text: `key=${key}` }) },
              },
            ],
          };
      response.writeHead(200, headers);
      response.end(
        JSON.stringify({
          id: `chatcmpl-${received.length}`,
          object: 'chat.completion',
          created: 0,
          model: 'gpt-test',
          choices: [{ index: 0, finish_reason: 'stop', logprobs: null, message }],
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    received,
    get failing() {
      return state.failing;
    },
    set failing(value) {
      state.failing = value;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const alphanumeric = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const randomChars = (length: number): string =>
  [...randomBytes(length)].map((byte) => alphanumeric[byte % alphanumeric.length]).join('');

const shapes: readonly (readonly [string, () => string])[] = [
  ['an sk-… key', () => `sk-proj-${randomChars(40)}`],
  ['an opaque Azure-style key (32 hex chars)', () => randomBytes(16).toString('hex')],
];

/** A bearer token that is not `Bearer [redacted]`. */
const unmaskedBearer = /bearer\s+(?!\[redacted\])/i;

/** Everything one shape's sessions produced, to grep for the key. */
interface Outputs {
  readonly key: string;
  readonly model: RecordingModel;
  readonly answers: string[];
  readonly warnings: string[];
  readonly thrown: unknown;
  readonly storedEvents: string;
  readonly inspectOut: string;
  readonly reportHtml: string;
  readonly cliErrors: string;
}

async function cli(args: string[], cwd: string) {
  return runCliIn(args, { cwd });
}

/**
 * Runs an agent through the recording model and the real adapter against the echo server: one
 * session where the model echoes the key in its text and a tool call's args, one where the
 * server answers 401 with the key in the body and the headers; then the CLI on the stored stream.
 */
async function runSessions(key: string, server: EchoServer, dir: string): Promise<Outputs> {
  const db = join(dir, '.agentlog', 'agentlog.db');
  const store = createSqliteEventStore({ path: db });
  const adapter = createOpenAiChatCompletion({
    model: 'gpt-test',
    apiKey: key,
    baseURL: server.baseURL,
    maxRetries: 0,
  });
  // The adapter's raw answers, to show the key did come back from the model.
  const answers: string[] = [];
  const tapped: ChatCompletion = {
    async complete(request, options) {
      const response = await adapter.complete(request, options);
      answers.push(JSON.stringify(response));
      return response;
    },
  };
  Object.defineProperty(tapped, 'secrets', { value: adapter.secrets, enumerable: false });
  const model = createRecordingModel(tapped);
  const echo = tool({
    name: 'echo',
    description: 'Echoes a text.',
    parameters: z.object({ text: z.string() }),
    execute: ({ text }) => `echoed ${text}`,
  });
  const warnings: string[] = [];
  const build = (streamId: string) =>
    Agent.builder()
      .llm(model)
      .tools([echo])
      .store(store)
      .streamId(streamId)
      .clock(fixedClock('2026-12-01T10:00:00.000Z'))
      .ids(counterIds(streamId))
      .logger({
        warn: (message, details) =>
          warnings.push(`${message} ${inspect(details, { depth: null })}`),
      })
      .build();

  server.failing = false;
  const answered = await build('echoed');
  await answered.query('What is my key?');

  server.failing = true;
  const failed = await build('refused');
  const thrown: unknown = await failed.query('Hello?').then(
    () => undefined,
    (error: unknown) => error,
  );
  const storedEvents = JSON.stringify([
    await store.readStream('echoed'),
    await store.readStream('refused'),
  ]);
  store.close();

  const inspected = [await cli(['inspect', 'echoed'], dir), await cli(['inspect', 'refused'], dir)];
  const reported = [
    await cli(['report', 'echoed', '--html', 'echoed.html'], dir),
    await cli(['report', 'refused', '--html', 'refused.html'], dir),
  ];
  for (const run of [...inspected, ...reported]) expect(run).toMatchObject({ code: 0 });
  return {
    key,
    model,
    answers,
    warnings,
    thrown,
    storedEvents,
    inspectOut: inspected.map((run) => run.stdout).join('\n'),
    reportHtml: ['echoed.html', 'refused.html']
      .map((file) => readFileSync(join(dir, file), 'utf8'))
      .join('\n'),
    cliErrors: [...inspected, ...reported].map((run) => run.stdout + run.stderr).join('\n'),
  };
}

describe.each(shapes)('RPL-3 a configured key (%s) is never written', (_shape, makeKey) => {
  let server: EchoServer;
  let dir: string;
  let out: Outputs;

  beforeAll(async () => {
    server = await echoServer();
    dir = mkdtempSync(join(tmpdir(), 'agentlog-secrets-everywhere-'));
    out = await runSessions(makeKey(), server, dir);
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('RPL-3 the key did reach the server and came back in the model text and tool args (the checks are not vacuous)', () => {
    expect(server.received.length).toBeGreaterThanOrEqual(3);
    expect(new Set(server.received)).toEqual(new Set([out.key]));
    expect(out.answers[0]).toContain(`Your key is ${out.key}`);
    expect(JSON.parse(out.answers[0] ?? '{}')).toMatchObject({
      toolCalls: [{ name: 'echo', args: JSON.stringify({ text: `key=${out.key}` }) }],
    });
    expect(out.thrown).toMatchObject({ code: 'completionFailed' });
  });

  it('RPL-3 the adapter and the recording model expose the key only through non-enumerable secrets()', () => {
    expect(out.model.secrets()).toEqual([out.key]);
    expect(Object.keys(out.model)).not.toContain('secrets');
    expect(JSON.stringify(out.model)).not.toContain(out.key);
    expect(inspect(out.model, { depth: Infinity, showHidden: true })).not.toContain(out.key);
    const adapter = createOpenAiChatCompletion({ model: 'gpt-test', apiKey: out.key });
    expect(adapter.secrets()).toEqual([out.key]);
    expect(JSON.stringify(adapter)).toBe('{"model":"gpt-test"}');
    expect(inspect(adapter, { depth: Infinity, showHidden: true })).not.toContain(out.key);
    expect({ ...adapter }).not.toHaveProperty('secrets');
  });

  it('RPL-3 the recording holds no key: request messages, tool args and outputs, responses', () => {
    const recording = JSON.stringify(out.model.exchanges());
    expect(out.model.exchanges()).toHaveLength(2);
    expect(recording).not.toContain(out.key);
    expect(recording).not.toMatch(unmaskedBearer);
    // Masked where the key was, the rest kept.
    expect(out.model.exchanges()[0]?.response).toMatchObject({
      message: 'Your key is [redacted], I will echo it.',
      toolCalls: [{ name: 'echo', args: '{"text":"key=[redacted]"}' }],
    });
    expect(recording).toContain('echoed key=[redacted]');
  });

  it('RPL-3 the thrown error holds no key: message, cause, body, headers, util.inspect at any depth', () => {
    const error = out.thrown as Error;
    const printed = [
      error.message,
      String(error.stack),
      inspect(error, { depth: Infinity }),
      inspect(error, { depth: Infinity, showHidden: true }),
      JSON.stringify(error),
    ];
    for (const text of printed) {
      expect(text).not.toContain(out.key);
      expect(text).not.toMatch(unmaskedBearer);
    }
    // Still a useful error: the status, the masked text and the request id are kept.
    expect(inspect(error, { depth: Infinity })).toContain('Incorrect API key provided: [redacted]');
    expect(inspect(error, { depth: Infinity })).toContain('401');
  });

  it('RPL-3 the adapter error itself keeps its SDK class, status and request id, without the key', async () => {
    server.failing = true;
    const adapter = createOpenAiChatCompletion({
      model: 'gpt-test',
      apiKey: out.key,
      baseURL: server.baseURL,
      maxRetries: 0,
    });
    const error = (await adapter
      .complete({ messages: [{ role: 'user', text: 'hi' }], tools: [] }, {})
      .catch((caught: unknown) => caught)) as Error;
    expect(error).toMatchObject({
      code: 'completionFailed',
      message:
        'openai: 401 Incorrect API key provided: [redacted]. You sent Authorization: Bearer [redacted]',
    });
    expect(error.cause).toMatchObject({ status: 401, requestID: expect.any(String) as unknown });
    const { headers } = error.cause as { headers: Headers };
    expect(headers.get('x-echo-api-key')).toBe('[redacted]');
    expect(inspect(error, { depth: Infinity, showHidden: true })).not.toContain(out.key);
  });

  it('RPL-3 the logs hold no key', () => {
    expect(out.warnings.join('\n')).not.toContain(out.key);
  });

  it('RPL-3 agentlog inspect and report --html show no key', () => {
    for (const text of [out.inspectOut, out.reportHtml, out.cliErrors]) {
      expect(text).not.toContain(out.key);
      expect(text).not.toMatch(unmaskedBearer);
    }
    expect(out.inspectOut).toContain('echo');
    expect(out.reportHtml).toContain('[redacted]');
  });

  describe('stored stream', () => {
    it('RPL-3 the stored events hold no key (the agent masks model.secrets() in what it writes)', () => {
      expect(out.storedEvents).toContain('echoed');
      expect(out.storedEvents).not.toContain(out.key);
    });
  });
});

describe('RPL-3 streams stored before masking', () => {
  it('RPL-3 inspect and report --html mask sk-… keys and Bearer tokens found in older stored events', async () => {
    const key = `sk-proj-${randomChars(40)}`;
    const token = `Bearer ${randomChars(32)}`;
    const dir = mkdtempSync(join(tmpdir(), 'agentlog-secrets-old-'));
    try {
      // A model without `secrets`: nothing masks the key before it is stored.
      const store = createInMemoryEventStore();
      const agent = await Agent.builder()
        .llm(scriptedModel([textResponse(`use ${key} with ${token}`)]))
        .store(store)
        .streamId('old')
        .clock(fixedClock('2026-12-01T10:00:00.000Z'))
        .ids(counterIds('old'))
        .build();
      await agent.query(`my key is ${key}`);
      const file = join(dir, 'old.jsonl');
      await writeJsonl(file, await store.readStream('old'));
      expect(readFileSync(file, 'utf8')).toContain(key);

      const inspected = await cli(['inspect', 'old.jsonl'], dir);
      const reported = await cli(['report', 'old.jsonl', '--html', 'old.html'], dir);
      const html = readFileSync(join(dir, 'old.html'), 'utf8');
      expect(inspected.code).toBe(0);
      expect(reported.code).toBe(0);
      for (const text of [inspected.stdout, reported.stdout, html]) {
        expect(text).not.toContain(key);
        expect(text).not.toContain(token);
      }
      expect(inspected.stdout).toContain('[redacted]');
      expect(html).toContain('use [redacted] with [redacted]');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
