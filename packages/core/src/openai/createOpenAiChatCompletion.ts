import type { OpenAI as OpenAiClient } from 'openai';
import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import { AgentError } from '../errors/agentError.js';
import { isAgentlogError } from '../errors/agentlogError.js';
import type {
  ChatCompletion,
  CompletionResponse,
  CompletionSettings,
} from '../ports/chatCompletion.js';
import type { Logger } from '../ports/logger.js';
import { secretMasker } from '../support/secretMasker.js';
import { completionFailed } from './completionFailed.js';
import { fromOpenAiResponse, fromOpenAiStream } from './fromOpenAiResponse.js';
import { OpenAI } from './openAiDriver.js';
import { toOpenAiMessages, toOpenAiTools } from './toOpenAiMessages.js';
import { withRetries } from './withRetries.js';

/** How long one attempt waits for the answer to start, unless `timeout` says otherwise. */
export const DEFAULT_TIMEOUT_MS = 60_000;
/** How often a failed request is asked again, unless `maxRetries` says otherwise (as the SDK). */
export const DEFAULT_MAX_RETRIES = 2;

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
  /**
   * How many times the adapter asks again after a timeout, a connection error, a 408, 409, 429 or
   * 5xx, each retry logged; default 2 (3 attempts). It applies to an injected `client` too.
   */
  readonly maxRetries?: number | undefined;
  /**
   * How long one attempt waits for the answer to start, in milliseconds (a streamed answer may
   * then take longer); default 60 000. It applies to an injected `client` too.
   */
  readonly timeout?: number | undefined;
  /**
   * Where retries are logged. Default: the logger the agent passes with each call, else
   * `console.warn`.
   */
  readonly logger?: Logger | undefined;
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
 * The model port backed by OpenAI chat completions (or any compatible gateway). Each attempt waits
 * `timeout` for the answer to start; a timeout, a connection error, a 408, 409, 429 or 5xx is
 * asked again up to `maxRetries` times, each retry logged with its reason and wait
 * ({@link withRetries}). Errors become `CompletionError('completionFailed',
 * 'openai: <status> <message>')`, naming the endpoint's host and the attempts when it could not be
 * reached or failed after retries; their message and cause (a rebuilt SDK error: body, headers,
 * nested causes and stacks) hold none of the adapter's secrets (SPEC RPL-3), nor do the log
 * lines. An abort through `options.signal` rejects with the signal's reason.
 */
export function createOpenAiChatCompletion(options: OpenAiOptions): OpenAiChatCompletion {
  const { model, stream } = options;
  const timeoutMs = checkedCount('timeout', options.timeout, 1) ?? DEFAULT_TIMEOUT_MS;
  const maxRetries = checkedCount('maxRetries', options.maxRetries, 0) ?? DEFAULT_MAX_RETRIES;
  const client =
    options.client === undefined ? newClient(options) : injected(options, options.client);
  const endpoint = hostOf(client.baseURL);
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
    const mask = secretMasker(secrets());
    const plan = {
      maxRetries,
      timeoutMs,
      endpoint,
      model,
      logger: options.logger ?? callOptions.logger ?? consoleLogger,
      mask,
      signal,
    };
    // The adapter retries, so that each retry is logged: the SDK is asked once per attempt.
    const requestOptions = (retry: number) => ({
      ...(signal === undefined ? {} : { signal }),
      timeout: timeoutMs,
      maxRetries: 0,
      headers: { 'X-Stainless-Retry-Count': String(retry) },
    });
    try {
      if (stream ?? onChunk !== undefined) {
        const chunks = await withRetries(
          (retry) =>
            client.chat.completions.create(
              { ...body, stream: true, stream_options: { include_usage: true } },
              requestOptions(retry),
            ),
          plan,
        );
        // Once the stream has begun it is not asked again: its chunks have gone out.
        const response = await fromOpenAiStream(chunks, onChunk);
        // The SDK ends an aborted stream quietly; what was read so far is not an answer.
        signal?.throwIfAborted();
        return response;
      }
      return fromOpenAiResponse(
        await withRetries(
          (retry) => client.chat.completions.create(body, requestOptions(retry)),
          plan,
        ),
      );
    } catch (error) {
      if (signal?.aborted === true) throw signal.reason;
      if (isAgentlogError(error)) throw error;
      throw completionFailed(error, mask);
    }
  }

  const adapter = { model, complete };
  // Not enumerable: JSON.stringify, spreads and Object.values of the adapter never reach it.
  Object.defineProperty(adapter, 'secrets', { value: secrets, enumerable: false });
  return Object.freeze(adapter) as OpenAiChatCompletion;
}

const consoleLogger: Logger = {
  warn: (message, details) => console.warn(`[agentlog] ${message}`, details ?? ''),
};

/** A whole number of at least `least`, or `undefined`; anything else is a configuration error. */
function checkedCount(name: string, value: number | undefined, least: number): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isSafeInteger(value) || value < least) {
    throw new AgentError(
      'invalidConfiguration',
      `openai: ${name} must be a whole number of ${least} or more, got ${value}`,
    );
  }
  return value;
}

/** The host and port of a base URL: never its path, query or credentials. */
function hostOf(baseURL: string): string {
  try {
    return new URL(baseURL).host;
  } catch {
    return 'the endpoint';
  }
}

function newClient(options: OpenAiChatCompletionOptions): OpenAiClient {
  const { apiKey = process.env['OPENAI_API_KEY'], baseURL, fetch } = options;
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
  });
}

// What builds a client; `timeout` and `maxRetries` are the adapter's, sent with each request.
const connectionOptions = ['apiKey', 'baseURL', 'fetch'] as const;

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
