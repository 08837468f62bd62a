import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../events/agentEvent.js';
import { initialState, type AgentState } from '../events/agentState.js';
import { evolve } from '../events/evolve.js';
import { completionRequest } from '../events/completionRequest.js';
import { completionMessages } from '../events/stateQueries.js';
import { RequestFingerprinter, requestFingerprint } from '../events/requestFingerprint.js';
import type { ToolSpec } from '../ports/chatCompletion.js';

// The incremental fingerprint must give exactly the digests of hashing the whole request, the
// algorithm every recorded ModelResponded holds (SPEC RPL-1): as the history grows, after a
// summary cuts it, on a branch of the history, and for a request a hook rebuilt.

const tools: readonly ToolSpec[] = [
  { name: 'ping', description: 'Answers pong.', parameters: { type: 'object', properties: {} } },
];

type Step = 'user' | 'assistant' | 'summary' | 'branch' | 'rebuilt' | 'otherTools' | 'lazy';

function event(
  state: AgentState,
  type: 'UserMessageQueued' | 'UserMessageAdded' | 'SummaryAdded',
  text: string,
): AgentEvent {
  return {
    type,
    data: { text },
    metadata: {
      eventId: `e${state.revision + 1}`,
      at: '2026-01-01T00:00:00.000Z',
      revision: state.revision + 1,
      schemaVersion: 1,
    },
  };
}

function addUser(state: AgentState, text: string): AgentState {
  const queued = evolve(state, event(state, 'UserMessageQueued', text));
  return evolve(queued, event(queued, 'UserMessageAdded', text));
}

describe('request fingerprints', () => {
  it('RPL-1 the incremental fingerprint equals the whole-request SHA-256 at every completion, also read from the history of a request whose list was never built', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.constantFrom<Step>(
            'user',
            'assistant',
            'summary',
            'branch',
            'rebuilt',
            'otherTools',
            'lazy',
          ),
          { maxLength: 40 },
        ),
        fc.string(),
        fc.boolean(),
        (steps, text, system) => {
          const fingerprints = new RequestFingerprinter();
          // With a system prompt, a summary's request starts with it (SPEC MSG-4).
          const start = system
            ? evolve(initialState, {
                type: 'SystemPromptAdded',
                data: { text: 'be brief' },
                metadata: {
                  eventId: 'sys',
                  at: '2026-01-01T00:00:00.000Z',
                  revision: 0,
                  schemaVersion: 1,
                },
              })
            : initialState;
          let state = addUser(start, text);
          let earlier = state;
          for (const [index, step] of steps.entries()) {
            if (step === 'user') state = addUser(state, `${text}${index}`);
            if (step === 'summary')
              state = evolve(state, event(state, 'SummaryAdded', `s${index}`));
            if (step === 'branch') state = addUser(earlier, `branch ${index}`);
            if (step === 'assistant') {
              state = evolve(state, {
                type: 'AssistantMessageAdded',
                data: { message: { role: 'assistant', text: `a${index}`, toolCalls: [] } },
                metadata: {
                  eventId: `a${index}`,
                  at: '2026-01-01T00:00:00.000Z',
                  revision: state.revision + 1,
                  schemaVersion: 1,
                },
              });
            }
            if (index % 3 === 0) earlier = state;
            const messages = completionMessages(state);
            if (step === 'lazy') {
              // Hashed from the history, without building the list; the list is the same.
              const lazy = completionRequest(state, tools);
              expect(fingerprints.fingerprint(lazy)).toBe(requestFingerprint({ messages, tools }));
              expect(lazy.messages).toBe(messages);
              continue;
            }
            const request =
              step === 'rebuilt'
                ? { messages: [...messages].reverse(), tools }
                : { messages, tools: step === 'otherTools' ? [] : tools };
            expect(fingerprints.fingerprint(request)).toBe(requestFingerprint(request));
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('settings in the fingerprint', () => {
  it('RPL-1 LOOP-12 a request’s settings are part of its fingerprint, incrementally too', () => {
    let state: AgentState = initialState;
    const at = (revision: number) => ({
      eventId: `e${revision}`,
      at: '2026-01-01T00:00:00.000Z',
      revision,
      schemaVersion: 3,
    });
    const events: AgentEvent[] = [
      { type: 'RunStarted', data: { mode: 'query', input: 'q' }, metadata: at(0) },
      { type: 'UserMessageQueued', data: { text: 'q' }, metadata: at(1) },
      { type: 'UserMessageAdded', data: { text: 'q' }, metadata: at(2) },
    ];
    for (const event of events) state = evolve(state, event);
    const messages = completionMessages(state);
    const plain = { messages, tools: [] };
    const tuned = { messages, tools: [], settings: { seed: 7, maxCompletionTokens: 10 } };
    const fingerprinter = new RequestFingerprinter();
    expect(fingerprinter.fingerprint(tuned)).toBe(requestFingerprint(tuned));
    expect(fingerprinter.fingerprint(plain)).toBe(requestFingerprint(plain));
    expect(requestFingerprint(tuned)).not.toBe(requestFingerprint(plain));
    // An undefined setting is no setting.
    expect(requestFingerprint({ ...plain, settings: { seed: undefined } })).toBe(
      requestFingerprint({ ...plain, settings: {} }),
    );
  });
});
