import { inspect } from 'node:util';
import OpenAI, { APIConnectionError, APIError } from 'openai';
import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import { AgentError } from '../errors/agentError.js';
import { isAgentlogError } from '../errors/agentlogError.js';
import type { ChatCompletion, CompletionResponse } from '../ports/chatCompletion.js';
import { fromOpenAiResponse, fromOpenAiStream } from './fromOpenAiResponse.js';
import { toOpenAiMessages, toOpenAiTools } from './toOpenAiMessages.js';

/** How to reach the model: which one, with which key, through which endpoint. */
export interface OpenAiChatCompletionOptions {
  /** The model id, such as `gpt-4.1-mini`. */
  readonly model: string;
  /** The API key; `process.env.OPENAI_API_KEY` when absent. It is never logged nor exposed. */
  readonly apiKey?: string;
  /** The base URL of any OpenAI-compatible gateway, such as `http://localhost:11434/v1`. */
  readonly baseURL?: string;
  /** A ready client to use instead of building one; then no other connection option may be set. */
  readonly client?: OpenAI;
  /** The sampling temperature; the model's default when absent. */
  readonly temperature?: number;
  /** Stream the answer; by default it streams exactly when the caller passes `onChunk`. */
  readonly stream?: boolean;
  /** The fetch the client uses (a fake one in tests). */
  readonly fetch?: typeof fetch;
  /** How often the client retries a failed request (429, 5xx, connection errors); SDK default 2. */
  readonly maxRetries?: number;
  /** The request timeout in milliseconds; SDK default 10 minutes. */
  readonly timeout?: number;
}

/** The OpenAI adapter of the {@link ChatCompletion} port; `model` is the model id it asks. */
export type OpenAiChatCompletion = ChatCompletion & { readonly model: string };

/**
 * The model port backed by OpenAI chat completions (or any compatible gateway). Errors become
 * `AgentError('completionFailed', 'openai: <status> <message>')` with the API key redacted
 * (SPEC RPL-3); an abort through `options.signal` rejects with the signal's reason.
 */
export function createOpenAiChatCompletion(
  options: OpenAiChatCompletionOptions,
): OpenAiChatCompletion {
  const { model, temperature, stream } = options;
  const client =
    options.client === undefined ? newClient(options) : injected(options, options.client);

  async function complete(
    ...[request, callOptions]: Parameters<ChatCompletion['complete']>
  ): Promise<CompletionResponse> {
    const tools = toOpenAiTools(request.tools);
    const body: ChatCompletionCreateParamsNonStreaming = {
      model,
      messages: toOpenAiMessages(request.messages),
      ...(tools.length > 0 ? { tools } : {}),
      ...(temperature === undefined ? {} : { temperature }),
    };
    const { signal, onChunk } = callOptions;
    const requestOptions = signal === undefined ? {} : { signal };
    try {
      if (stream ?? onChunk !== undefined) {
        const chunks = await client.chat.completions.create(
          { ...body, stream: true, stream_options: { include_usage: true } },
          requestOptions,
        );
        const response = await fromOpenAiStream(chunks, onChunk);
        // The SDK ends an aborted stream quietly; what was read so far is not an answer.
        signal?.throwIfAborted();
        return response;
      }
      return fromOpenAiResponse(await client.chat.completions.create(body, requestOptions));
    } catch (error) {
      if (signal?.aborted === true) throw signal.reason;
      if (isAgentlogError(error)) throw error;
      // Read when needed: a client built with a key function swaps its key over time.
      throw completionFailed(error, client.apiKey ?? undefined);
    }
  }

  return Object.freeze({ model, complete });
}

function newClient(options: OpenAiChatCompletionOptions): OpenAI {
  const { apiKey = process.env['OPENAI_API_KEY'], baseURL, fetch, maxRetries, timeout } = options;
  if (apiKey === undefined || apiKey === '') {
    throw new AgentError(
      'invalidConfiguration',
      'openai: no API key; pass apiKey or set OPENAI_API_KEY',
    );
  }
  return new OpenAI({
    apiKey,
    ...(baseURL === undefined ? {} : { baseURL }),
    ...(fetch === undefined ? {} : { fetch }),
    ...(maxRetries === undefined ? {} : { maxRetries }),
    ...(timeout === undefined ? {} : { timeout }),
  });
}

const connectionOptions = ['apiKey', 'baseURL', 'fetch', 'maxRetries', 'timeout'] as const;

function injected(options: OpenAiChatCompletionOptions, client: OpenAI): OpenAI {
  const conflicting = connectionOptions.filter((name) => options[name] !== undefined);
  if (conflicting.length > 0) {
    throw new AgentError(
      'invalidConfiguration',
      `openai: pass either client or ${conflicting.join(', ')}, not both`,
    );
  }
  return client;
}

/** An SDK error as `completionFailed`; the key is redacted from the message and the cause. */
function completionFailed(error: unknown, secret: string | undefined): AgentError {
  const redact = (text: string): string => redactSecret(text, secret);
  const raw = error instanceof Error ? error.message : String(error);
  const status = error instanceof APIError && error.status !== undefined ? `${error.status} ` : '';
  const text = status !== '' && raw.startsWith(status) ? raw.slice(status.length) : raw;
  return new AgentError('completionFailed', `openai: ${status}${redact(text)}`, {
    cause: safeCause(error, redact),
  });
}

/**
 * The error itself, or, when anything in it (message, body, nested causes) mentions the key, a
 * rebuilt one of the same SDK class with the key redacted and without the nested causes.
 */
function safeCause(error: unknown, redact: (text: string) => string): unknown {
  const printed = inspect(error, { depth: 10 });
  if (redact(printed) === printed) return error;
  const message = redact(error instanceof Error ? error.message : String(error));
  const apiError: APIError | undefined = error instanceof APIError ? error : undefined;
  const { status, headers } = apiError ?? {};
  if (apiError !== undefined && status !== undefined && headers !== undefined) {
    let body: unknown;
    try {
      body = JSON.parse(redact(JSON.stringify(apiError.error ?? null)));
    } catch {
      body = undefined;
    }
    return APIError.generate(status, { error: body }, message, headers);
  }
  return error instanceof APIConnectionError
    ? new APIConnectionError({ message })
    : new Error(message);
}

function redactSecret(text: string, secret: string | undefined): string {
  const withoutKey =
    secret === undefined || secret === '' ? text : text.split(secret).join('[redacted]');
  return withoutKey.replace(/Bearer\s+[\w.~+/=-]+/gi, 'Bearer [redacted]');
}
