import {
  decodeEvent,
  evolve,
  initialState,
  ReplayDivergenceError,
  type AgentEvent,
  type AgentState,
  type ChatCompletion,
  type ChatMessage,
  type CompletionRequest,
  type CompletionResponse,
  type StreamEvent,
} from '@agentlog/core';
import { messagesForCompletion, RequestFingerprinter } from '@agentlog/core/replay-kit';
import { structuralDiff } from './structuralDiff.js';

/** One recorded completion: what the model answered, and the request it answered. */
interface RecordedCompletion {
  readonly fingerprint: string;
  readonly response: CompletionResponse;
  /** The fold before the answer: the messages the recorded agent sent are rebuilt from it on a divergence only. */
  readonly before: AgentState;
}

/** The messages the recorded agent sent for a completion, rebuilt from the fold before it. */
function recordedMessages(completion: RecordedCompletion): readonly ChatMessage[] {
  return messagesForCompletion(completion.before.history);
}

/** A model that serves recorded answers and reports the first request that differs (SPEC RPL-1). */
export interface ReplayModel extends ChatCompletion {
  /** The first divergence it found, if any (it also threw it). */
  divergence(): ReplayDivergenceError | undefined;
  /** How many recorded answers are still unused. */
  remaining(): number;
  /** Throws a `ReplayDivergenceError` when recorded answers were left unused. */
  assertDone(): void;
}

/**
 * Serves the `ModelResponded` answers of a recorded stream in order. A request whose fingerprint
 * differs from the recorded one throws `ReplayDivergenceError` with the completion's index and a
 * diff of the recorded and the actual messages. With `fromRevision`, answers recorded before it
 * (the copied part of a fork) are not served.
 */
export function createReplayModel(
  recorded: readonly StreamEvent[],
  options: { readonly fromRevision?: number } = {},
): ReplayModel {
  const completions = recordedCompletions(recorded.map(decodeEvent), options.fromRevision ?? 0);
  let next = 0;
  let found: ReplayDivergenceError | undefined;
  // Hashes only the messages added since the last completion: a replay costs O(events), like the
  // live loop, not O(completions × history).
  const fingerprints = new RequestFingerprinter();
  const fail = (error: ReplayDivergenceError): ReplayDivergenceError => {
    found ??= error;
    return error;
  };
  return {
    complete(request: CompletionRequest) {
      const index = next;
      const expected = completions[index];
      if (expected === undefined) {
        return Promise.reject(
          fail(
            new ReplayDivergenceError(
              'the replayed run asks the model more often than recorded; completion',
              index,
              undefined,
              request,
              `  the recording holds ${completions.length} completion(s); this is completion #${index + 1}`,
            ),
          ),
        );
      }
      next += 1;
      if (fingerprints.fingerprint(request) !== expected.fingerprint) {
        const messagesDiff = structuralDiff(recordedMessages(expected), request.messages);
        const diff =
          messagesDiff === '  (no difference)'
            ? `  the messages are equal, yet the fingerprint differs: the tool specs or settings differ (tools now: ${request.tools.map((tool) => tool.name).join(', ') || 'none'}), or the recorded events before this completion were edited after recording`
            : messagesDiff;
        return Promise.reject(
          fail(
            new ReplayDivergenceError(
              'the request to the model; completion',
              index,
              recordedMessages(expected),
              request.messages,
              diff,
            ),
          ),
        );
      }
      return Promise.resolve(expected.response);
    },
    divergence: () => found,
    remaining: () => completions.length - next,
    assertDone() {
      const left = completions.length - next;
      if (left > 0) {
        throw fail(
          new ReplayDivergenceError(
            'the replayed run used fewer completions than recorded; completion',
            next,
            completions[next]?.response,
            undefined,
            `  ${left} recorded response(s) were never used`,
          ),
        );
      }
    },
  };
}

function recordedCompletions(
  events: readonly AgentEvent[],
  fromRevision: number,
): RecordedCompletion[] {
  const completions: RecordedCompletion[] = [];
  let state = initialState;
  for (const event of events) {
    if (event.type === 'ModelResponded' && event.metadata.revision >= fromRevision) {
      completions.push({
        fingerprint: event.data.requestFingerprint,
        response: event.data.response,
        before: state,
      });
    }
    state = evolve(state, event);
  }
  return completions;
}
