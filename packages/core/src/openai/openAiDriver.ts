import type * as OpenAiModule from 'openai';
import { loadOptionalPeer } from '../errors/loadOptionalPeer.js';

/**
 * The `openai` client, an optional peer dependency: loaded when `@agentlog/core/openai` is
 * imported, never by `@agentlog/core` itself. Without it, the import fails with one line:
 * `npm install openai`.
 */
const openai: typeof OpenAiModule = await loadOptionalPeer(
  'openai',
  '@agentlog/core/openai',
  () => import('openai'),
);

export const {
  OpenAI,
  APIError,
  APIConnectionError,
  APIConnectionTimeoutError,
  APIUserAbortError,
} = openai;
