import { AgentError } from '../errors/agentError.js';
import { isAgentlogError } from '../errors/agentlogError.js';
import {
  messagesForCompletion,
  type AssistantMessage,
  type ChatMessage,
} from '../messages/chatMessage.js';
import type { CompletionRequest, CompletionResponse } from '../ports/chatCompletion.js';
import { callHooks, transformWithHooks } from './callHooks.js';
import { invokeBatch } from './invokeBatch.js';
import { normalizeResponse } from './normalizeResponse.js';
import { requestFingerprint } from './requestFingerprint.js';
import type { RunScope } from './runScope.js';

/**
 * One completion step (SPEC LOOP-4): `beforeCompletion`, the model with the history and every
 * tool spec ordered by name, `ModelResponded`, `afterCompletion`, the assistant message (through
 * `onNewMessage`), the batch of tool calls, `afterEach`.
 */
export async function completionStep(scope: RunScope): Promise<void> {
  const { writer, config } = scope;
  const specs = [...config.tools.values()]
    .map((tool) => tool.spec())
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const initial: CompletionRequest = {
    messages: messagesForCompletion(writer.state.history),
    tools: specs,
  };
  const request = await transformWithHooks(scope, 'beforeCompletion', initial);
  let raw: unknown;
  try {
    raw = await config.model.complete(request, {});
  } catch (error) {
    if (isAgentlogError(error)) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new AgentError('completionFailed', `the completion failed: ${message}`, { cause: error });
  }
  const usedIds = new Set(Object.keys(writer.state.toolCalls));
  const response = normalizeResponse(raw, config.ids, usedIds);
  await writer.append([
    { type: 'ModelResponded', data: { requestFingerprint: requestFingerprint(request), response } },
  ]);
  const hooked = await transformWithHooks(scope, 'afterCompletion', response);
  const final: CompletionResponse =
    hooked === response ? response : normalizeResponse(hooked, config.ids, usedIds);
  const hasText = final.message !== undefined && final.message !== '';
  if (hasText || final.toolCalls.length > 0) {
    const message: AssistantMessage = {
      role: 'assistant',
      ...(hasText ? { text: final.message } : {}),
      toolCalls: final.toolCalls,
    };
    const added = await newAssistantMessage(scope, message);
    await writer.append([{ type: 'AssistantMessageAdded', data: { message: added } }]);
    if (added.toolCalls.length > 0) await invokeBatch(scope, added.toolCalls, { resuming: false });
  }
  await callHooks(scope, 'afterEach');
}

async function newAssistantMessage(
  scope: RunScope,
  message: AssistantMessage,
): Promise<AssistantMessage> {
  const replaced: ChatMessage = await transformWithHooks<'onNewMessage', ChatMessage>(
    scope,
    'onNewMessage',
    message,
  );
  if (replaced.role !== 'assistant') {
    throw new AgentError(
      'hookFailed',
      'an onNewMessage hook must return an assistant message for an assistant message',
    );
  }
  return replaced;
}
