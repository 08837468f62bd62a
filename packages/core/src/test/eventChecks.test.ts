import { describe, expect, it } from 'vitest';
import { CURRENT_SCHEMA_VERSION } from '../events/agentEvent.js';
import { decodeEvent } from '../events/decodeEvent.js';
import type { StreamEvent } from '../ports/eventStore.js';

const stored = (type: string, data: unknown): StreamEvent => ({
  type,
  data,
  metadata: {
    eventId: 'e',
    at: '2026-01-01T00:00:00.000Z',
    revision: 4,
    schemaVersion: CURRENT_SCHEMA_VERSION,
  },
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
      [
        stored('ToolCallCompleted', {
          toolCallId: 'c',
          output: { kind: 'text', text: 'hooked' },
          raw: { ok: 'yes' },
        }),
        'raw.ok: expected a boolean, got string',
      ],
      [
        stored('ToolCallFailed', {
          toolCallId: 'c',
          error: 'x',
          failureCount: 1,
          raw: { ok: true, output: { kind: 'loud' } },
        }),
        'raw.output.kind: expected one of text, fail, stop, agentFailed, feedbackRequired, got "loud"',
      ],
      [
        stored('FeedbackRequested', { toolCall: { id: 'c', name: 't' }, raw: { ok: false } }),
        'raw.error: expected a string, got undefined',
      ],
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

  it('EVT-4 RPL-5 the raw tool result and the hook of a stop pass the checks', () => {
    const valid = [
      stored('ToolCallCompleted', {
        toolCallId: 'c',
        output: { kind: 'text', text: 'hooked' },
        raw: { ok: true, output: { kind: 'text', text: 'own' } },
      }),
      stored('ToolCallFailed', {
        toolCallId: 'c',
        error: 'hooked',
        failureCount: 1,
        raw: { ok: true, output: { kind: 'stop' } },
      }),
      stored('FeedbackRequested', {
        toolCall: { id: 'c', name: 't' },
        raw: { ok: false, error: 'boom' },
      }),
      stored('AgentStopped', {
        reason: { kind: 'other', text: 'hook' },
        cause: 'stoppedByCaller',
        hook: 'beforeTool',
      }),
    ];
    for (const event of valid) expect(decodeEvent(event).data).toBe(event.data);
  });
});
