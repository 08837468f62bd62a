import {
  requestFingerprint,
  type ChatCompletion,
  type CompletionRequest,
  type CompletionResponse,
} from '@agentlog/core';
import { redactSecrets } from './redactSecrets.js';

/** One exchange with the model, as recorded (secrets redacted). */
export interface RecordedExchange {
  readonly fingerprint: string;
  readonly request: CompletionRequest;
  readonly response: CompletionResponse;
}

/** A model that passes every request to `inner` and keeps a redacted copy of each exchange. */
export interface RecordingModel extends ChatCompletion {
  /** The exchanges so far, in order, with secret fields redacted (SPEC RPL-3). */
  exchanges(): readonly RecordedExchange[];
}

/**
 * Wraps a real model for recording (SPEC RPL-1): the agent gets the inner model's answers
 * unchanged, while the recording keeps the request, its fingerprint and the answer, with the
 * default secret fields and `secretFields` redacted.
 */
export function createRecordingModel(
  inner: ChatCompletion,
  options: { readonly secretFields?: readonly string[] } = {},
): RecordingModel {
  const recorded: RecordedExchange[] = [];
  return {
    async complete(request, completionOptions) {
      const response = await inner.complete(request, completionOptions);
      recorded.push(
        redactSecrets(
          { fingerprint: requestFingerprint(request), request, response },
          options.secretFields,
        ),
      );
      return response;
    },
    exchanges: () => recorded,
  };
}
