import {
  requestFingerprint,
  type ChatCompletion,
  type CompletionOptions,
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
  /** The exchanges so far, in order, with secret fields and values redacted (SPEC RPL-3). */
  exchanges(): readonly RecordedExchange[];
  /** The inner model's secrets (none when it has no `secrets`); not enumerable. */
  readonly secrets: () => readonly string[];
}

/**
 * Wraps a real model for recording (SPEC RPL-1): the agent gets the inner model's answers
 * unchanged, while the recording keeps the request, its fingerprint and the answer, with the
 * default secret fields and `secretFields` redacted, and every secret the inner model was
 * configured with (`inner.secrets()`, whatever its shape), bearer tokens and `sk-` keys masked
 * wherever they appear: messages, tool-call arguments, tool outputs and errors, the answer.
 */
export function createRecordingModel(
  inner: ChatCompletion,
  options: { readonly secretFields?: readonly string[] } = {},
): RecordingModel {
  const recorded: RecordedExchange[] = [];
  const secrets = (): readonly string[] => inner.secrets?.() ?? [];
  const model = {
    async complete(request: CompletionRequest, completionOptions: CompletionOptions) {
      const response = await inner.complete(request, completionOptions);
      recorded.push(
        redactSecrets(
          { fingerprint: requestFingerprint(request), request, response },
          options.secretFields,
          secrets(),
        ),
      );
      return response;
    },
    exchanges: (): readonly RecordedExchange[] => recorded,
  };
  // Not enumerable, as on the inner model: serialising the recorder never reaches the secrets.
  Object.defineProperty(model, 'secrets', { value: secrets, enumerable: false });
  return model as RecordingModel;
}
