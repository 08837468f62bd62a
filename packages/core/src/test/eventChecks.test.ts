import { describe, expect, it } from 'vitest';
import { decodeEvent } from '../events/decodeEvent.js';
import type { StreamEvent } from '../ports/eventStore.js';

const stored = (type: string, data: unknown): StreamEvent => ({
  type,
  data,
  metadata: { eventId: 'e', at: '2026-01-01T00:00:00.000Z', revision: 4, schemaVersion: 1 },
});

describe('the checks of stored event data', () => {
  it('EVT-4 a malformed field is refused with its path, the event and its revision', () => {
    const cases: [StreamEvent, string][] = [
      [stored('UserMessageAdded', { text: 3 }), 'text: expected a string, got number'],
      [
        stored('ToolCallCompleted', { toolCallId: 'c', output: { kind: 'text', text: ['x'] } }),
        'output.text: expected a string, got an array',
      ],
      [
        stored('ToolCallCompleted', { toolCallId: 'c', output: { kind: 'shout' } }),
        'output.kind: expected one of text, fail, stop, agentFailed, feedbackRequired, got "shout"',
      ],
      [
        stored('ModelResponded', {
          requestFingerprint: 'f',
          response: { toolCalls: [], usage: { prompt_tokens: 12 } },
        }),
        'response.usage.promptTokens: expected a number, got undefined',
      ],
      [
        stored('ToolCallFailed', { toolCallId: 'c', error: 'x', failureCount: 0 }),
        'failureCount: expected a whole number of at least 1, got 0',
      ],
      [
        stored('AgentStopped', { reason: { kind: 'noNewMessages' }, cause: 'bored' }),
        'cause: expected one of toolRequestedStop',
      ],
      [stored('RunStarted', null), 'data: expected an object, got null'],
    ];
    for (const [event, problem] of cases) {
      expect(() => decodeEvent(event), problem).toThrow(
        `event ${event.type} at revision 4 is invalid: ${problem}`,
      );
    }
  });

  it('EVT-4 a valid event is handed back as stored, keys beyond its shape included', () => {
    const event = stored('ToolCallCompleted', {
      toolCallId: 'c',
      output: { kind: 'text', text: 'hi', extra: 1 },
    });
    const decoded = decodeEvent(event);
    expect(decoded.data).toBe(event.data);
    expect(decoded.data).toEqual({
      toolCallId: 'c',
      output: { kind: 'text', text: 'hi', extra: 1 },
    });
  });
});
