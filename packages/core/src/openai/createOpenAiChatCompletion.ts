import type { APIError as OpenAiApiError, OpenAI as OpenAiClient } from 'openai';
import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import { AgentError } from '../errors/agentError.js';
import {
  CompletionError,
  failureKindOfStatus,
  retryAfterMsOf,
  type CompletionFailureKind,
} from '../errors/completionError.js';
import { isAgentlogError } from '../errors/agentlogError.js';
import type {
  ChatCompletion,
  CompletionResponse,
  CompletionSettings,
} from '../ports/chatCompletion.js';
import { fromOpenAiResponse, fromOpenAiStream } from './fromOpenAiResponse.js';
import {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  OpenAI,
} from './openAiDriver.js';
import { REDACTED, secretMasker } from '../support/secretMasker.js';
import { maskDeep } from './maskDeep.js';
import { toOpenAiMessages, toOpenAiTools } from './toOpenAiMessages.js';

/** How to reach the model: which one, with which key, through which endpoint. */
export interface OpenAiChatCompletionOptions {
  /** The model id, such as `gpt-4.1-mini`. */
  readonly model: string;
  /** The API key; `process.env.OPENAI_API_KEY` when absent. It is never logged nor exposed. */
  readonly apiKey?: string | undefined;
  /** The base URL of any OpenAI-compatible gateway, such as `http://localhost:11434/v1`. */
  readonly baseURL?: string | undefined;
  /** A ready client to use instead of building one; then no other connection option may be set. */
  readonly client?: OpenAiClient | undefined;
  /** Stream the answer; by default it streams exactly when the caller passes `onChunk`. */
  readonly stream?: boolean | undefined;
  /** The fetch the client uses (a fake one in tests). */
  readonly fetch?: typeof fetch | undefined;
  /** How often the client retries a failed request (429, 5xx, connection errors); SDK default 2. */
  readonly maxRetries?: number | undefined;
  /** The request timeout in milliseconds; SDK default 10 minutes. */
  readonly timeout?: number | undefined;
}

/**
 * The adapter's options: the connection, and the chat-completions settings it sends with every
 * request (`temperature`, `maxCompletionTokens`, `reasoningEffort`, `parallelToolCalls`,
 * `toolChoice`, `seed`, `extraBody`). A request's own `settings` (set by a `beforeCompletion`
 * hook) win over them, key by key.
 */
export type OpenAiOptions = OpenAiChatCompletionOptions & CompletionSettings;

/**
 * The OpenAI adapter of the {@link ChatCompletion} port; `model` is the model id it asks, and
 * `secrets` (not enumerable) gives the API key it sends, for masking (SPEC RPL-3).
 */
export type OpenAiChatCompletion = ChatCompletion & {
  readonly model: string;
  readonly secrets: () => readonly string[];
};

/**
 * The model port backed by OpenAI chat completions (or any compatible gateway). Errors become
 * `AgentError('completionFailed', 'openai: <status> <message>')` whose message and cause (a
 * rebuilt SDK error: body, headers, nested causes and stacks) hold none of the adapter's secrets
 * (SPEC RPL-3); an abort through `options.signal` rejects with the signal's reason.
 */
export function createOpenAiChatCompletion(options: OpenAiOptions): OpenAiChatCompletion {
  const { model, stream } = options;
  const client =
    options.client === undefined ? newClient(options) : injected(options, options.client);
  // Read when needed: a client built with a key function swaps its key over time.
  const secrets = (): readonly string[] => {
    const key = client.apiKey;
    return Object.freeze(typeof key === 'string' && key !== '' ? [key] : []);
  };

  async function complete(
    ...[request, callOptions]: Parameters<ChatCompletion['complete']>
  ): Promise<CompletionResponse> {
    const tools = toOpenAiTools(request.tools);
    const body: ChatCompletionCreateParamsNonStreaming = {
      model,
      messages: toOpenAiMessages(request.messages),
      ...(tools.length > 0 ? { tools } : {}),
      ...settingsBody(options, request.settings, tools.length > 0),
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
      throw completionFailed(error, secretMasker(secrets()));
    }
  }

  const adapter = { model, complete };
  // Not enumerable: JSON.stringify, spreads and Object.values of the adapter never reach it.
  Object.defineProperty(adapter, 'secrets', { value: secrets, enumerable: false });
  return Object.freeze(adapter) as OpenAiChatCompletion;
}

function newClient(options: OpenAiChatCompletionOptions): OpenAiClient {
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

function injected(options: OpenAiChatCompletionOptions, client: OpenAiClient): OpenAiClient {
  const conflicting = connectionOptions.filter((name) => options[name] !== undefined);
  if (conflicting.length > 0) {
    throw new AgentError(
      'invalidConfiguration',
      `openai: pass either client or ${conflicting.join(', ')}, not both`,
    );
  }
  return client;
}

/** An SDK error as `completionFailed`, with the secrets masked in the message and the cause. */
function completionFailed(error: unknown, mask: (text: string) => string): AgentError {
  const raw = error instanceof Error ? error.message : String(error);
  const api =
    error instanceof APIError
      ? (error as OpenAiApiError<number | undefined, Headers | undefined>)
      : undefined;
  const code: number | undefined = api?.status;
  const status = code !== undefined ? `${code} ` : '';
  const text = status !== '' && raw.startsWith(status) ? raw.slice(status.length) : raw;
  const headers: Headers | undefined = api?.headers;
  const retryAfterMs =
    headers === undefined ? undefined : retryAfterMsOf((name) => headers.get(name));
  return new CompletionError(kindOf(error), `openai: ${status}${mask(text)}`, {
    cause: safeCause(error, mask),
    ...(code === undefined ? {} : { status: code }),
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  });
}

/** The kind of an SDK failure (SPEC LOOP-12). */
function kindOf(error: unknown): CompletionFailureKind {
  if (error instanceof APIUserAbortError) return 'aborted';
  if (error instanceof APIConnectionError || error instanceof APIConnectionTimeoutError)
    return 'network';
  const status = error instanceof APIError ? (error.status as number | undefined) : undefined;
  if (status !== undefined) return failureKindOfStatus(status);
  if (error instanceof Error && error.name === 'AbortError') return 'aborted';
  return 'other';
}

// Response headers that carry credentials or sessions: dropped to `[redacted]` whatever they hold.
const credentialHeaders = new Set([
  'authorization',
  'proxy-authorization',
  'x-api-key',
  'api-key',
  'cookie',
  'set-cookie',
]);

/**
 * A rebuilt copy of the thrown error, never the error itself: the SDK error keeps the response
 * headers and body, where a server may echo the key. The copy has the same SDK class, status and
 * request id; its message, body, header values, stack and nested causes are masked.
 */
function safeCause(error: unknown, mask: (text: string) => string, depth = 0): Error {
  if (!(error instanceof Error)) return new Error(mask(String(error)));
  const message = mask(error.message);
  const apiError: OpenAiApiError | undefined = error instanceof APIError ? error : undefined;
  const status = apiError?.status;
  let copy: Error;
  if (error instanceof APIConnectionTimeoutError) {
    copy = new APIConnectionTimeoutError({ message });
  } else if (error instanceof APIUserAbortError) {
    copy = new APIUserAbortError({ message });
  } else if (error instanceof APIConnectionError) {
    copy = new APIConnectionError({ message, ...nestedCause(error, mask, depth) });
  } else if (apiError !== undefined && status !== undefined) {
    const prefix = `${status} `;
    copy = APIError.generate(
      status,
      { error: maskDeep(apiError.error, mask) },
      message.startsWith(prefix) ? message.slice(prefix.length) : message,
      safeHeaders(apiError.headers, mask),
    );
  } else {
    copy = new Error(message, nestedCause(error, mask, depth));
    copy.name = mask(error.name);
    const { code } = error as { code?: unknown };
    if (typeof code === 'string' || typeof code === 'number') {
      Object.assign(copy, { code: typeof code === 'string' ? mask(code) : code });
    }
  }
  if (error.stack !== undefined) copy.stack = mask(error.stack);
  return copy;
}

function nestedCause(
  error: Error,
  mask: (text: string) => string,
  depth: number,
): { cause?: Error } {
  return error.cause === undefined || depth >= 5
    ? {}
    : { cause: safeCause(error.cause, mask, depth + 1) };
}

function safeHeaders(headers: Headers | undefined, mask: (text: string) => string): Headers {
  const safe = new Headers();
  headers?.forEach((value, name) => {
    safe.append(name, credentialHeaders.has(name.toLowerCase()) ? REDACTED : mask(value));
  });
  return safe;
}

/**
 * The settings as chat-completions fields: the adapter's, then the request's over them, key by
 * key. Tool settings go only with tools; `extraBody` goes last, as it is.
 */
function settingsBody(
  adapter: CompletionSettings,
  request: CompletionSettings | undefined,
  withTools: boolean,
): Record<string, unknown> {
  const pick = <K extends keyof CompletionSettings>(key: K): CompletionSettings[K] =>
    request?.[key] !== undefined ? request[key] : adapter[key];
  const toolChoice = pick('toolChoice');
  const fields: Record<string, unknown> = {
    temperature: pick('temperature'),
    max_completion_tokens: pick('maxCompletionTokens'),
    reasoning_effort: pick('reasoningEffort'),
    seed: pick('seed'),
    ...(withTools
      ? {
          parallel_tool_calls: pick('parallelToolCalls'),
          tool_choice:
            typeof toolChoice === 'object'
              ? { type: 'function', function: { name: toolChoice.name } }
              : toolChoice,
        }
      : {}),
  };
  const defined = Object.fromEntries(
    Object.entries(fields).filter(([, value]) => value !== undefined),
  );
  return { ...defined, ...adapter.extraBody, ...request?.extraBody };
}
