import { mkdtemp, readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startChatCompletionsServer } from '@agentlog/core/testing';
import { runCli } from './cli.js';
import { firstDraftNotes } from './scriptedSession.js';

// Live mode against a local server in the shape of OpenAI's streamed chat completions (written
// by hand): the model's text is printed as it arrives, the run goes through the real adapter.

const markdown = '# 0.34.0\n\n- Agent tools in `agents-contrib` (#1207)';
const answers = [
  {
    text: ['Here is ', 'a draft.'],
    call: { id: 'c1', name: 'write_changelog', args: { markdown } },
  },
  { text: [], call: { id: 'c2', name: 'stop', args: firstDraftNotes } },
];

let server: Server;
let baseURL = '';
const seen: { authorization?: string; stream?: boolean }[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (part: Buffer) => (body += part.toString()));
    request.on('end', () => {
      const { messages, stream } = JSON.parse(body) as {
        messages: { role: string }[];
        stream?: boolean;
      };
      const authorization = request.headers.authorization;
      seen.push({
        ...(authorization === undefined ? {} : { authorization }),
        ...(stream === undefined ? {} : { stream }),
      });
      const answer = answers[messages.some((m) => m.role === 'tool') ? 1 : 0]!;
      const chunk = (delta: unknown, finish_reason: string | null = null) =>
        `data: ${JSON.stringify({ id: 'x', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason }] })}\n\n`;
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write(chunk({ role: 'assistant', content: null }));
      for (const piece of answer.text) response.write(chunk({ content: piece }));
      response.write(
        chunk({
          tool_calls: [
            {
              index: 0,
              id: answer.call.id,
              type: 'function',
              function: { name: answer.call.name, arguments: JSON.stringify(answer.call.args) },
            },
          ],
        }),
      );
      response.write(chunk({}, 'tool_calls'));
      response.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('npm start, live', () => {
  it('with OPENAI_API_KEY and OPENAI_BASE_URL: the OpenAI adapter, its text streamed as it arrives', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'agentlog-live-'));
    const out: string[] = [];
    const code = await runCli(['--by', 'ana'], {
      input: Readable.from(['y\n']),
      write: (text) => out.push(text),
      env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: baseURL },
      cwd,
      isTTY: false,
    });
    const text = out.join('');
    expect(code, text).toBe(0);
    expect(text).toContain('(live, on the OpenAI adapter)');
    expect(out).toContain('Here is ');
    expect(text).toContain('  model: Here is a draft.\n');
    expect(text).toContain('  ✓ approved by ana\n');
    expect(seen[0]).toEqual({ authorization: 'Bearer sk-test', stream: true });
    expect(await readFile(join(cwd, '.agentlog/release-notes/RELEASE_NOTES.md'), 'utf8')).toBe(
      `${markdown}\n`,
    );
  });

  it('--record saves the live run as a JSONL fixture with its provenance, and no key', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'agentlog-live-'));
    const out: string[] = [];
    const code = await runCli(['--by', 'ana', '--record', 'recorded/session.jsonl'], {
      input: Readable.from(['y\n']),
      write: (text) => out.push(text),
      env: {
        OPENAI_API_KEY: 'sk-test-0123456789',
        OPENAI_BASE_URL: baseURL,
        OPENAI_MODEL: 'gpt-4o',
      },
      cwd,
      isTTY: false,
    });
    expect(code, out.join('')).toBe(0);
    expect(out.join('')).toContain('✓ recorded the session in recorded/session.jsonl');
    const session = await readFile(join(cwd, 'recorded/session.jsonl'), 'utf8');
    expect(
      session
        .split('\n')
        .filter(Boolean)
        .map((line) => (JSON.parse(line) as { type: string }).type),
    ).toContain('ModelResponded');
    const provenance = JSON.parse(
      await readFile(join(cwd, 'recorded/session.jsonl.provenance.json'), 'utf8'),
    ) as Record<string, unknown>;
    expect(provenance).toMatchObject({
      kind: 'recorded',
      model: 'gpt-4o',
      by: 'npm start -- --record',
    });
    expect(session + JSON.stringify(provenance)).not.toContain('sk-test-0123456789');
  });

  it('--record offline is refused: it saves live runs only', async () => {
    const out: string[] = [];
    const code = await runCli(['--record', 'x.jsonl'], {
      input: Readable.from([]),
      write: (text) => out.push(text),
      env: {},
      cwd: await mkdtemp(join(tmpdir(), 'agentlog-live-')),
      isTTY: false,
    });
    expect(code).toBe(2);
    expect(out.join('')).toContain('--record saves a live run: set OPENAI_API_KEY');
  });

  it('a refused key and a gateway that answers HTML are one clear line each, and the stream is kept', async () => {
    for (const [failure, expected] of [
      [
        {
          kind: 'failure',
          status: 401,
          body: JSON.stringify({ error: { message: 'Incorrect API key provided' } }),
        },
        'the API key was refused: set a valid OPENAI_API_KEY',
      ],
      [
        {
          kind: 'failure',
          status: 502,
          body: '<html>Bad Gateway</html>',
          headers: { 'content-type': 'text/html' },
        },
        "the model's endpoint did not answer with a chat completion",
      ],
    ] as const) {
      const gateway = await startChatCompletionsServer([failure]);
      const out: string[] = [];
      const code = await runCli(['--by', 'ana'], {
        input: Readable.from([]),
        write: (text) => out.push(text),
        env: { OPENAI_API_KEY: 'sk-wrong-key-000000', OPENAI_BASE_URL: gateway.baseURL },
        cwd: await mkdtemp(join(tmpdir(), 'agentlog-live-')),
        isTTY: false,
      });
      await gateway.close();
      const text = out.join('');
      expect(code, text).toBe(1);
      expect(text).toContain(expected);
      expect(text).toContain('the events so far are in release-notes-');
      expect(text).not.toContain('sk-wrong-key-000000');
    }
  });
});

describe('npm start, live, with a model that never calls stop', () => {
  it('the completion limit ends the run with one clear line, and the stream is kept', async () => {
    const chatter = Array.from({ length: 30 }, () => ({
      kind: 'answer' as const,
      content: 'Thinking…',
    }));
    const gateway = await startChatCompletionsServer(chatter);
    const out: string[] = [];
    const code = await runCli(['--by', 'ana'], {
      input: Readable.from([]),
      write: (text) => out.push(text),
      env: { OPENAI_API_KEY: 'sk-test-0123456789', OPENAI_BASE_URL: gateway.baseURL },
      cwd: await mkdtemp(join(tmpdir(), 'agentlog-live-')),
      isTTY: false,
    });
    await gateway.close();
    const text = out.join('');
    expect(code, text).toBe(1);
    expect(text).toContain(
      'the agent stopped without writing the notes: {"kind":"noNewMessages"} (cause assistantAnswered)',
    );
    expect(text).toContain('the events so far are in release-notes-');
  });
});
