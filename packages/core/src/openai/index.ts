// The OpenAI entry of @agentlog/core: the ChatCompletion port backed by OpenAI chat completions.
export { createOpenAiChatCompletion } from './createOpenAiChatCompletion.js';
export type {
  OpenAiChatCompletion,
  OpenAiChatCompletionOptions,
  OpenAiOptions,
} from './createOpenAiChatCompletion.js';
export { toOpenAiMessages, toOpenAiTools } from './toOpenAiMessages.js';
export { fromOpenAiResponse, fromOpenAiStream } from './fromOpenAiResponse.js';
