import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One scripted answer of the server: a completion, or an HTTP failure. */
export type ServedAnswer =
  | {
      readonly kind: 'answer';
      readonly content?: string;
      readonly refusal?: string;
      readonly toolCalls?: readonly {
        readonly id: string;
        readonly name: string;
        readonly args: string;
      }[];
      readonly finishReason?: 'stop' | 'length' | 'tool_calls' | 'content_filter';
      readonly usage?: readonly [prompt: number, completion: number];
      /** How many pieces each text and each tool call's arguments are cut into when streamed. */
      readonly pieces?: number;
    }
  | {
      readonly kind: 'failure';
      readonly status: number;
      readonly body: string;
      readonly headers?: Readonly<Record<string, string>>;
    };

/** A running server: its base URL for `baseURL`, the requests it got, and how to close it. */
export interface ChatCompletionsServer {
  readonly baseURL: string;
  /** Every request body it received, parsed. */
  readonly requests: readonly Record<string, unknown>[];
  close(): Promise<void>;
}

/**
 * A local OpenAI-compatible chat-completions server on 127.0.0.1, for tests (DESIGN: testing
 * entry). It serves the scripted answers in order, as JSON or, when the request asks to stream,
 * as Server-Sent Events whose texts and tool-call arguments are cut into pieces across chunks.
 * The payloads are written by hand in the shape of OpenAI's chat-completions responses; they are
 * not recordings of a real model. A request beyond the script is a 500.
 */
export async function startChatCompletionsServer(
  script: readonly ServedAnswer[],
  options: { readonly model?: string } = {},
): Promise<ChatCompletionsServer> {
  const model = options.model ?? 'gpt-4o-2024-08-06';
  const requests: Record<string, unknown>[] = [];
  let next = 0;
  const server = createServer((request, response) => {
    void read(request).then((text) => {
      const body = JSON.parse(text) as Record<string, unknown>;
      requests.push(body);
      const answer = script[next];
      next += 1;
      if (answer === undefined) return fail(response, 500, 'the script has no more answers');
      if (answer.kind === 'failure') {
        response.writeHead(answer.status, {
          'content-type': 'application/json',
          ...answer.headers,
        });
        return response.end(answer.body);
      }
      const id = `chatcmpl-${next}`;
      if (body.stream === true) return stream(response, id, model, answer);
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(completion(id, model, answer)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

type Answer = Extract<ServedAnswer, { kind: 'answer' }>;

function read(request: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    request.on('data', (part: Buffer) => (text += part.toString()));
    request.on('end', () => resolve(text));
  });
}

function fail(response: ServerResponse, status: number, message: string): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ error: { message, type: 'server_error' } }));
}

const finishOf = (answer: Answer) =>
  answer.finishReason ?? ((answer.toolCalls?.length ?? 0) > 0 ? 'tool_calls' : 'stop');

const usageOf = (answer: Answer) => {
  const [prompt, completionTokens] = answer.usage ?? [10, 5];
  return {
    prompt_tokens: prompt,
    completion_tokens: completionTokens,
    total_tokens: prompt + completionTokens,
  };
};

function completion(id: string, model: string, answer: Answer) {
  const calls = answer.toolCalls ?? [];
  return {
    id,
    object: 'chat.completion',
    created: 1_700_000_000,
    model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: answer.content ?? null,
          refusal: answer.refusal ?? null,
          ...(calls.length === 0
            ? {}
            : {
                tool_calls: calls.map((call) => ({
                  id: call.id,
                  type: 'function',
                  function: { name: call.name, arguments: call.args },
                })),
              }),
        },
        finish_reason: finishOf(answer),
        logprobs: null,
      },
    ],
    usage: usageOf(answer),
  };
}

/** Cuts a text into `pieces` parts of about the same length (at least one). */
function cut(text: string, pieces: number): string[] {
  const size = Math.max(1, Math.ceil(text.length / Math.max(1, pieces)));
  const parts: string[] = [];
  for (let at = 0; at < text.length; at += size) parts.push(text.slice(at, at + size));
  return parts.length === 0 ? [''] : parts;
}

function stream(response: ServerResponse, id: string, model: string, answer: Answer): void {
  response.writeHead(200, { 'content-type': 'text/event-stream' });
  const base = { id, object: 'chat.completion.chunk', created: 1_700_000_000, model };
  const send = (choices: unknown[], extra: Record<string, unknown> = {}) =>
    response.write(`data: ${JSON.stringify({ ...base, choices, ...extra })}\n\n`);
  const delta = (value: unknown, finish: string | null = null) =>
    send([{ index: 0, delta: value, finish_reason: finish }]);
  const pieces = answer.pieces ?? 3;
  delta({ role: 'assistant', content: '' });
  if (answer.content !== undefined)
    for (const part of cut(answer.content, pieces)) delta({ content: part });
  if (answer.refusal !== undefined)
    for (const part of cut(answer.refusal, pieces)) delta({ refusal: part });
  // Parallel calls interleave their argument pieces, as providers do.
  const calls = (answer.toolCalls ?? []).map((call) => cut(call.args, pieces));
  (answer.toolCalls ?? []).forEach((call, index) =>
    delta({
      tool_calls: [
        { index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } },
      ],
    }),
  );
  for (let piece = 0; piece < Math.max(0, ...calls.map((parts) => parts.length)); piece += 1) {
    calls.forEach((parts, index) => {
      const part = parts[piece];
      if (part !== undefined) delta({ tool_calls: [{ index, function: { arguments: part } }] });
    });
  }
  delta({}, finishOf(answer));
  send([], { usage: usageOf(answer) });
  response.end('data: [DONE]\n\n');
}
