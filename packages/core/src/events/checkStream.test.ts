import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PendingEvent } from './agentEvent.js';
import type { AgentState } from './agentState.js';
import { checkStream } from './checkStream.js';
import { foldEvents, foldStream } from './foldEvents.js';
import type { StreamEvent } from '../ports/eventStore.js';
import { play, scenarioArb } from '../test/loopScenarios.js';
import { stored } from '../test/storedEvents.js';

/** The error text of `fold`, or `undefined` when it does not throw. */
function problemOf(fold: () => unknown): string | undefined {
  try {
    fold();
    return undefined;
  } catch (error) {
    return `${(error as Error).name}: ${(error as Error).message}`;
  }
}

/** The fields a checked state shares with the full state, as JSON. */
function scalars(state: AgentState): unknown {
  const {
    history: _h,
    toolCalls: _t,
    failureCounts: _f,
    ...rest
  } = Object.getOwnPropertyDescriptors(state);
  return JSON.parse(
    JSON.stringify(Object.fromEntries(Object.entries(rest).map(([key, d]) => [key, d.value]))),
  );
}

/** The calls of a full state that are not answered yet. */
function openCalls(state: AgentState): AgentState['toolCalls'] {
  return Object.fromEntries(
    Object.entries(state.toolCalls).filter(
      ([, call]) => call.status !== 'completed' && call.status !== 'failed',
    ),
  );
}

const call = (id: string) => ({ id, name: 'echo', args: '{}' });
const batch = (id: string): PendingEvent[] => [
  {
    type: 'AssistantMessageAdded',
    data: { message: { role: 'assistant', toolCalls: [call(id)] } },
  },
  { type: 'ToolCallStarted', data: { toolCall: call(id), idempotencyKey: `s:${id}` } },
  { type: 'ToolCallCompleted', data: { toolCallId: id, output: { kind: 'text', text: id } } },
];
// Many answered calls: a checking fold drops their records and keeps their ids and statuses.
const answered: PendingEvent[] = [
  { type: 'RunStarted', data: { mode: 'run' } },
  ...Array.from({ length: 80 }, (_, index) => batch(`c${index}`)).flat(),
];
const waiting: PendingEvent[] = [
  ...answered,
  {
    type: 'AssistantMessageAdded',
    data: { message: { role: 'assistant', toolCalls: [call('w')] } },
  },
  { type: 'ToolCallStarted', data: { toolCall: call('w'), idempotencyKey: 's:w' } },
  { type: 'FeedbackRequested', data: { toolCall: call('w'), payload: { why: 'approve' } } },
];

// One stream per EVT-4 rule (and a schema error and a gap): each must be refused.
const contradictions: Record<string, PendingEvent[]> = {
  'an output for a call never made': [
    { type: 'RunStarted', data: { mode: 'run' } },
    {
      type: 'ToolCallCompleted',
      data: { toolCallId: 'ghost', output: { kind: 'text', text: 'boo' } },
    },
  ],
  'a second output for an answered call': [
    ...answered,
    {
      type: 'ToolCallCompleted',
      data: { toolCallId: 'c3', output: { kind: 'text', text: 'two' } },
    },
  ],
  'a failure for an answered call': [
    ...answered,
    { type: 'ToolCallFailed', data: { toolCallId: 'c0', error: 'x', failureCount: 1 } },
  ],
  'an id of an answered call used again': [...answered, ...batch('c1')],
  'an id used twice in one message': [
    { type: 'RunStarted', data: { mode: 'run' } },
    {
      type: 'AssistantMessageAdded',
      data: { message: { role: 'assistant', toolCalls: [call('a'), call('b'), call('a')] } },
    },
  ],
  'a start of an answered call': [
    ...answered,
    { type: 'ToolCallStarted', data: { toolCall: call('c5'), idempotencyKey: 's:c5' } },
  ],
  'an output for a call not started': [
    { type: 'RunStarted', data: { mode: 'run' } },
    {
      type: 'AssistantMessageAdded',
      data: { message: { role: 'assistant', toolCalls: [call('n')] } },
    },
    { type: 'ToolCallCompleted', data: { toolCallId: 'n', output: { kind: 'text', text: 'x' } } },
  ],
  'a feedback request for a call not started': [
    { type: 'RunStarted', data: { mode: 'run' } },
    {
      type: 'AssistantMessageAdded',
      data: { message: { role: 'assistant', toolCalls: [call('n')] } },
    },
    { type: 'FeedbackRequested', data: { toolCall: call('n') } },
  ],
  'a decision on an answered call': [
    ...answered,
    { type: 'FeedbackReceived', data: { toolCallId: 'c7', feedback: { kind: 'approved' } } },
  ],
  'a second decision nobody used': [
    ...waiting,
    { type: 'FeedbackReceived', data: { toolCallId: 'w', feedback: { kind: 'approved' } } },
    { type: 'FeedbackReceived', data: { toolCallId: 'w', feedback: { kind: 'approved' } } },
  ],
  'a decision consumed that was never given': [
    { type: 'FeedbackConsumed', data: { toolCallId: 'x' } },
  ],
  'a second system prompt': [
    { type: 'SystemPromptAdded', data: { text: 'a' } },
    { type: 'SystemPromptAdded', data: { text: 'b' } },
  ],
  'a user message never queued': [{ type: 'UserMessageAdded', data: { text: 'hi' } }],
  'a user message other than the queued one': [
    { type: 'UserMessageQueued', data: { text: 'hi' } },
    { type: 'UserMessageAdded', data: { text: 'ho' } },
  ],
  'an answer outside a run': [
    { type: 'ModelResponded', data: { requestFingerprint: 'f', response: { toolCalls: [] } } },
  ],
  'a second stop': [
    { type: 'RunStarted', data: { mode: 'run' } },
    {
      type: 'AgentStopped',
      data: { reason: { kind: 'noNewMessages' }, cause: 'assistantAnswered' },
    },
    {
      type: 'AgentStopped',
      data: { reason: { kind: 'noNewMessages' }, cause: 'assistantAnswered' },
    },
  ],
  'a fork marker after the first event': [
    { type: 'RunStarted', data: { mode: 'run' } },
    { type: 'StreamForked', data: { fromStream: 's', atRevision: 0 } },
  ],
  'a malformed event': [
    { type: 'RunStarted', data: { mode: 'sprint' } } as unknown as PendingEvent,
  ],
};

describe('checkStream, the checking fold', () => {
  it('EVT-4 it refuses every contradiction foldStream refuses, with the same error and text', () => {
    for (const [name, events] of Object.entries(contradictions)) {
      const expected = problemOf(() => foldStream(stored(events)));
      expect(expected, name).toMatch(/^InvalidEventError: event \w+ at revision \d+ is invalid: /);
      expect(
        problemOf(() => checkStream(stored(events))),
        name,
      ).toBe(expected);
    }
    const gap = stored(answered).filter((event) => event.metadata.revision !== 30);
    expect(problemOf(() => checkStream(gap))).toBe(problemOf(() => foldStream(gap)));
    expect(problemOf(() => checkStream(gap))).toMatch(/expected revision 30/);
  });

  it('EVT-4 checked page by page, a stream gives the errors and the state of one checkStream', () => {
    for (const events of [...Object.values(contradictions), answered, waiting]) {
      const all = stored(events);
      let state: AgentState | undefined;
      const paged = problemOf(() => {
        for (let start = 0; start < all.length; start += 7)
          state = checkStream(all.slice(start, start + 7), state);
      });
      expect(paged).toBe(problemOf(() => checkStream(all)));
      if (paged === undefined)
        expect(scalars(state as AgentState)).toStrictEqual(scalars(checkStream(all)));
    }
  });

  it('a checked state has the full state scalar fields and open calls, and refuses to read what it did not keep', () => {
    const full = foldStream(stored(waiting)).state;
    const checked = checkStream(stored(waiting));
    expect(scalars(checked)).toStrictEqual(scalars(full));
    expect(checked.toolCalls).toStrictEqual(openCalls(full));
    expect(Object.keys(checked.toolCalls)).toEqual(['w']);
    expect(() => checked.history).toThrow(
      'a state from checkStream keeps no history: fold the stream with foldStream to read it',
    );
    expect(() => checked.failureCounts).toThrow(/keeps no failure counts/);
    // Folding on from a checked state checks as strictly, and the checked state does not change.
    const before = scalars(checked);
    const more = stored([...waiting, ...batch('c2')]).slice(waiting.length);
    expect(
      problemOf(() =>
        foldEvents(
          more.map((event) => event as never),
          checked,
        ),
      ),
    ).toMatch(/tool call id c2 was already used/);
    expect(scalars(checked)).toStrictEqual(before);
  });

  it('EVT-4 started from a full state, it knows the calls that state answered', () => {
    const full = foldStream(stored(answered)).state;
    const again = stored([...answered, ...batch('c9')]).slice(answered.length);
    expect(problemOf(() => checkStream(again, full))).toBe(
      problemOf(() => foldStream(again, full)),
    );
    expect(problemOf(() => checkStream(again, full))).toMatch(/tool call id c9 was already used/);
  });

  it('EVT-1 EVT-4 on generated agent runs, cut short or with an event dropped, it agrees with foldStream', async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArb, fc.nat(), fc.nat(), async (scenario, cut, drop) => {
        const events = (await play(scenario)).events as readonly StreamEvent[];
        const variants = [
          events,
          events.slice(0, cut % (events.length + 1)),
          // A dropped event: usually a contradiction (or a gap), sometimes a valid stream.
          events
            .filter((_, index) => index !== drop % Math.max(1, events.length))
            .map((event, revision) => ({ ...event, metadata: { ...event.metadata, revision } })),
        ];
        for (const variant of variants) {
          const expected = problemOf(() => foldStream(variant));
          expect(problemOf(() => checkStream(variant))).toBe(expected);
          if (expected !== undefined) continue;
          const full = foldStream(variant).state;
          const checked = checkStream(variant);
          expect(scalars(checked)).toStrictEqual(scalars(full));
          expect(checked.toolCalls).toStrictEqual(openCalls(full));
        }
      }),
      { numRuns: 100 },
    );
  });
});
