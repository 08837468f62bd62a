import { AgentError } from '../errors/agentError.js';
import { isAgentlogError } from '../errors/agentlogError.js';
import type { AssistantMessage, ChatMessage } from '../messages/chatMessage.js';
import type { CompletionRequest, CompletionResponse, ToolSpec } from '../ports/chatCompletion.js';
import type { Tool } from '../tools/tool.js';
import { callHooks, transformWithHooks } from './callHooks.js';
import { rememberFingerprints } from './foldCache.js';
import { invokeBatch } from './invokeBatch.js';
import { normalizeResponse } from './normalizeResponse.js';
import type { RunScope } from './runScope.js';
import { completionMessages, toolCallOf } from '../events/stateQueries.js';

/**
 * One completion step (SPEC LOOP-4): `beforeCompletion`, the model with the history and every
 * tool spec ordered by name, `ModelResponded`, `afterCompletion`, the assistant message (through
 * `onNewMessage`), the batch of tool calls, `afterEach`.
 */
export async function completionStep(scope: RunScope): Promise<void> {
  const { writer, config } = scope;
  const specs = toolSpecs(config.tools);
  const initial: CompletionRequest = {
    messages: completionMessages(writer.state),
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
  const isUsedId = (id: string) => toolCallOf(writer.state, id) !== undefined;
  const response = normalizeResponse(raw, config.ids, isUsedId);
  // Held back and written with the assistant message and the starts of its calls, in one commit.
  writer.defer([
    {
      type: 'ModelResponded',
      data: { requestFingerprint: scope.fingerprints.fingerprint(request), response },
    },
  ]);
  // A new agent on this stream in this process goes on hashing from here.
  const progress = scope.fingerprints.snapshot();
  if (progress !== undefined) rememberFingerprints(config.store, writer.streamId, progress);
  const hooked = await transformWithHooks(scope, 'afterCompletion', response);
  const final: CompletionResponse =
    hooked === response ? response : normalizeResponse(hooked, config.ids, isUsedId);
  const hasText = final.message !== undefined && final.message !== '';
  if (hasText || final.toolCalls.length > 0) {
    const message: AssistantMessage = {
      role: 'assistant',
      ...(hasText ? { text: final.message } : {}),
      toolCalls: final.toolCalls,
    };
    const added = await newAssistantMessage(scope, message);
    writer.defer([{ type: 'AssistantMessageAdded', data: { message: added } }]);
    if (added.toolCalls.length > 0) await invokeBatch(scope, added.toolCalls, { resuming: false });
  }
  // The loop decides on the folded state: nothing of this step may stay held back.
  await writer.flush();
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

const specsByTools = new WeakMap<ReadonlyMap<string, Tool>, readonly ToolSpec[]>();

/**
 * Every tool spec ordered by name, built once per agent: the same array at every step, so the
 * fingerprint of the specs is computed once too.
 */
function toolSpecs(tools: ReadonlyMap<string, Tool>): readonly ToolSpec[] {
  let specs = specsByTools.get(tools);
  if (specs === undefined) {
    specs = Object.freeze(
      [...tools.values()]
        .map((tool) => tool.spec())
        .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    );
    specsByTools.set(tools, specs);
  }
  return specs;
}
