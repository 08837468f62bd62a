import { recordOutcome, type Outcome } from '../decider/recordOutcome.js';
import type { RunCursor } from '../decider/runCursor.js';
import { AgentError } from '../errors/agentError.js';
import { isAgentlogError } from '../errors/agentlogError.js';
import { completionMessages, toolCallOf } from '../events/stateQueries.js';
import type { AssistantMessage, ChatMessage } from '../messages/chatMessage.js';
import type { CompletionRequest, CompletionResponse, ToolSpec } from '../ports/chatCompletion.js';
import type { Tool } from '../tools/tool.js';
import { transformWithHooks } from './callHooks.js';
import { rememberFingerprints } from './foldCache.js';
import { takeInbox } from './takeInbox.js';
import { normalizeResponse } from './normalizeResponse.js';
import type { RunScope } from './runScope.js';

/**
 * The model effect of a step (SPEC LOOP-4): what the step holds back is written first, then
 * `beforeCompletion`, the model with the history and every tool spec ordered by name, the raw
 * answer recorded, `afterCompletion`, and the assistant message through `onNewMessage`.
 */
export async function askModel(scope: RunScope, cursor: RunCursor): Promise<RunCursor> {
  const { writer, config } = scope;
  // The run is visible to other processes while the model answers (its lease, SPEC RES-3).
  await writer.flush();
  const initial: CompletionRequest = {
    messages: completionMessages(writer.state),
    tools: toolSpecs(config.tools),
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
  let next = record(scope, cursor, {
    kind: 'modelResponded',
    requestFingerprint: scope.fingerprints.fingerprint(request),
    response,
  });
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
    next = record(scope, next, {
      kind: 'assistantMessage',
      message: await newAssistantMessage(scope, message),
    });
  }
  return next;
}

function record(scope: RunScope, cursor: RunCursor, outcome: Outcome): RunCursor {
  const before = takeInbox(scope, cursor);
  const recorded = recordOutcome(scope.writer.state, scope.settings, before, outcome);
  scope.writer.defer(recorded.events);
  return recorded.cursor;
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
