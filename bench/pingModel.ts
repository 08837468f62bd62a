import type { ChatCompletion, CompletionResponse } from '@agentlog/core';

/** A scripted model that asks for one `ping` per step, then answers "done"; counts its calls. */
export interface PingModel extends ChatCompletion {
  /** How many completions it answered. */
  calls(): number;
}

/**
 * The bench's model: `steps` responses with one `ping` call each (ids unique per step), then the
 * text "done". It keeps no requests, unlike `scriptedModel`, so memory reflects the agent alone.
 */
export function pingModel(steps: number, idPrefix = 'ping'): PingModel {
  let calls = 0;
  return {
    complete(): Promise<CompletionResponse> {
      calls += 1;
      if (calls > steps + 1) throw new Error(`ping model: unexpected completion #${calls}`);
      return Promise.resolve(
        calls <= steps
          ? { toolCalls: [{ id: `${idPrefix}-${calls}`, name: 'ping', args: '{}' }] }
          : { message: 'done', toolCalls: [] },
      );
    },
    calls: () => calls,
  };
}
