import { describeThrown } from '../errors/toolError.js';
import { recordOutcome, type Outcome, type Recorded } from '../decider/recordOutcome.js';
import type { RunCursor } from '../decider/runCursor.js';
import { AgentError } from '../errors/agentError.js';
import { CompletionError, failureKindOfThrown } from '../errors/completionError.js';
import { isAgentlogError } from '../errors/agentlogError.js';
import { completionRequest } from '../events/completionRequest.js';
import { toolCallOf } from '../events/stateQueries.js';
import type { AssistantMessage, ChatMessage } from '../messages/chatMessage.js';
import type { CompletionResponse, ToolSpec } from '../ports/chatCompletion.js';
import type { Tool } from '../api/tool.js';
import type { Logger } from '../api/hooks.js';
import { transformWithHooks } from './callHooks.js';
import { rememberFingerprints } from '../writer/foldCache.js';
import { takeRecordedInputs } from './takeRecordedInputs.js';
import { assistantMessageOf } from '../decider/assistantMessageOf.js';
import { throwIfAborted } from './runAborted.js';
import { normalizeResponse } from './normalizeResponse.js';
import type { RunScope } from './runScope.js';

/**
 * The model effect of a step (SPEC LOOP-4): `beforeCompletion`, the model with the history and
 * every tool spec ordered by name, the raw answer recorded, `afterCompletion`, and the assistant
 * message the decider makes of it through `onNewMessage`.
 */
export async function askModel(scope: RunScope, cursor: RunCursor): Promise<RunCursor> {
  const { writer, config } = scope;
  // Its messages are built when the model (or a hook) reads them: O(1) until then.
  const initial = completionRequest(writer.state, toolSpecs(config.tools));
  const hookedRequest = transformWithHooks(scope, 'beforeCompletion', initial);
  const request = hookedRequest instanceof Promise ? await hookedRequest : hookedRequest;
  let raw: unknown;
  const { signal } = scope.options;
  const streamed = streamedTo(scope);
  try {
    raw = await config.model.complete(request, {
      ...(signal === undefined ? {} : { signal }),
      ...(streamed === undefined ? {} : { onChunk: streamed.onChunk }),
      logger: modelLogger(scope),
    });
  } catch (error) {
    throwIfAborted(signal, 'while the model answered');
    if (isAgentlogError(error)) throw error;
    const message = describeThrown(error);
    // A model of the caller's own: classified by what it says of itself (SPEC LOOP-12).
    const { status } = (error ?? {}) as { status?: unknown };
    throw new CompletionError(
      failureKindOfThrown(error) ?? 'other',
      `the completion failed: ${message}`,
      {
        cause: error,
        ...(typeof status === 'number' ? { status } : {}),
      },
    );
  }
  throwIfAborted(signal, 'while the model answered');
  streamed?.rethrow();
  const isUsedId = (id: string) => toolCallOf(writer.state, id) !== undefined;
  const response = normalizeResponse(raw, config.ids, isUsedId);
  const answered = recorded(scope, cursor, {
    kind: 'modelResponded',
    requestFingerprint: scope.fingerprints.fingerprint(request),
    response,
  });
  // A new agent on this stream in this process goes on hashing from where this one got.
  rememberFingerprints(config.store, writer.streamId, scope.fingerprints);
  // The raw answer is recorded before hooks see it: a stop they ask for, or their failure, comes
  // after it.
  writer.defer(answered.events);
  const pendingMessage = assistantMessageFor(scope, response, isUsedId);
  const message = pendingMessage instanceof Promise ? await pendingMessage : pendingMessage;
  if (message === undefined) return answered.cursor;
  const added = recorded(scope, answered.cursor, { kind: 'assistantMessage', message });
  writer.defer(added.events);
  return added.cursor;
}

/**
 * The assistant message of the answer as `afterCompletion` left it, through `onNewMessage`. A
 * promise only when a hook of either kind is registered: without hooks a step awaits nothing here.
 */
function assistantMessageFor(
  scope: RunScope,
  response: CompletionResponse,
  isUsedId: (id: string) => boolean,
): AssistantMessage | undefined | Promise<AssistantMessage | undefined> {
  const hooked = transformWithHooks(scope, 'afterCompletion', response);
  if (hooked instanceof Promise) {
    return hooked.then((answer) => messageOfAnswer(scope, response, answer, isUsedId));
  }
  return messageOfAnswer(scope, response, hooked, isUsedId);
}

function messageOfAnswer(
  scope: RunScope,
  response: CompletionResponse,
  hooked: CompletionResponse,
  isUsedId: (id: string) => boolean,
): AssistantMessage | undefined | Promise<AssistantMessage> {
  const final: CompletionResponse =
    hooked === response ? response : normalizeResponse(hooked, scope.config.ids, isUsedId);
  const message = assistantMessageOf(final);
  return message === undefined ? undefined : newAssistantMessage(scope, message);
}

/**
 * Where the chunks of a streamed answer go (SPEC LOOP-10): the caller's `onTextDelta` and the
 * `onStream` hooks, synchronously. Without either, the model is not asked to stream. A hook that
 * throws fails the step once the answer is in, naming the hook.
 */
function streamedTo(
  scope: RunScope,
): { onChunk: (delta: string) => void; rethrow: () => void } | undefined {
  const { onTextDelta } = scope.options;
  const hooks = scope.config.hooks.onStream;
  if (onTextDelta === undefined && hooks.length === 0) return undefined;
  const context = {
    streamId: scope.writer.streamId,
    completion: scope.writer.state.completionsInRun + 1,
  };
  let failure: Error | undefined;
  return {
    onChunk: (delta) => {
      if (failure !== undefined) return;
      try {
        onTextDelta?.(delta, context);
        for (const hook of hooks) hook(scope.agent, { delta, completion: context.completion });
      } catch (error) {
        failure = new AgentError(
          'hookFailed',
          `${onTextDelta === undefined ? 'an onStream hook' : 'onTextDelta or an onStream hook'} failed: ${describeThrown(error)}`,
          { cause: error },
        );
      }
    },
    rethrow: () => {
      if (failure !== undefined) throw failure;
    },
  };
}

/** The agent's logger as the model gets it: each line's details name the stream. */
function modelLogger(scope: RunScope): Logger {
  const { logger } = scope.config;
  const { streamId } = scope.writer;
  return { warn: (message, details) => logger.warn(message, { ...details, streamId }) };
}

function recorded(scope: RunScope, cursor: RunCursor, outcome: Outcome): Recorded {
  takeRecordedInputs(scope, 'outcome');
  return recordOutcome(scope.writer.state, scope.settings, cursor, outcome);
}

function newAssistantMessage(
  scope: RunScope,
  message: AssistantMessage,
): AssistantMessage | Promise<AssistantMessage> {
  const replaced = transformWithHooks<'onNewMessage', ChatMessage>(scope, 'onNewMessage', message);
  return replaced instanceof Promise
    ? replaced.then(assistantReplacement)
    : assistantReplacement(replaced);
}

function assistantReplacement(replaced: ChatMessage): AssistantMessage {
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
