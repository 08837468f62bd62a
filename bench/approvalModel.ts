import type { ChatCompletion, CompletionRequest, CompletionResponse } from '@agentlog/core';

/**
 * The approval scenario's model: after a user message it asks for `approve_ping` (a fresh call id
 * each time); after that tool's output it answers "done".
 */
export function approvalModel(): ChatCompletion {
  let calls = 0;
  return {
    complete(request: CompletionRequest): Promise<CompletionResponse> {
      const last = request.messages.at(-1);
      if (last?.role === 'user') {
        calls += 1;
        return Promise.resolve({
          toolCalls: [{ id: `approve-${calls}`, name: 'approve_ping', args: '{}' }],
        });
      }
      if (last?.role === 'tool') return Promise.resolve({ message: 'done', toolCalls: [] });
      throw new Error(`approval model: unexpected last message ${JSON.stringify(last)}`);
    },
  };
}
