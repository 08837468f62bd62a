import type {
  ChatCompletion,
  CompletionRequest,
  CompletionResponse,
} from '../ports/chatCompletion.js';

/** One scripted answer: a response, a function of the request, or an error the model throws. */
export type ScriptStep =
  | CompletionResponse
  | ((
      request: CompletionRequest,
      index: number,
    ) => CompletionResponse | Promise<CompletionResponse>)
  | { readonly throws: Error };

/** A model that plays a script and reports an unexpected call or an unused step. */
export interface ScriptedModel extends ChatCompletion {
  /** Every request it received, in order. */
  readonly requests: readonly CompletionRequest[];
  /** How many steps are still unused. */
  remaining(): number;
  /** Throws if steps are left unused. */
  assertDone(): void;
}

/**
 * A scripted model for tests (DESIGN: testing entry): answers with `steps` in order, fails the
 * run on a call beyond the script, and `assertDone()` fails if a step is unused.
 */
export function scriptedModel(steps: readonly ScriptStep[]): ScriptedModel {
  const requests: CompletionRequest[] = [];
  return {
    requests,
    async complete(request) {
      const index = requests.length;
      requests.push(request);
      const step = steps[index];
      if (step === undefined) {
        throw new Error(
          `scripted model: unexpected completion #${index + 1}; the script has ${steps.length} step(s)`,
        );
      }
      if (typeof step === 'function') return step(request, index);
      if ('throws' in step) throw step.throws;
      return step;
    },
    remaining: () => Math.max(0, steps.length - requests.length),
    assertDone() {
      const left = steps.length - requests.length;
      if (left > 0) throw new Error(`scripted model: ${left} scripted step(s) were never used`);
    },
  };
}

/** A scripted tool call; `args` may be an object (serialised) or raw text. */
export interface ScriptedCall {
  readonly name: string;
  readonly args?: unknown;
  readonly id?: string;
}

let counter = 0;

/** A response with text and no tool calls. */
export function textResponse(text: string): CompletionResponse {
  return { message: text, toolCalls: [] };
}

/** A response that calls tools; calls without an id get `call_<n>`. */
export function toolCallResponse(
  calls: readonly ScriptedCall[],
  text?: string,
): CompletionResponse {
  return {
    ...(text === undefined ? {} : { message: text }),
    toolCalls: calls.map((call) => {
      counter += 1;
      const args =
        call.args === undefined
          ? undefined
          : typeof call.args === 'string'
            ? call.args
            : JSON.stringify(call.args);
      return {
        id: call.id ?? `call_${counter}`,
        name: call.name,
        ...(args === undefined ? {} : { args }),
      };
    }),
  };
}
