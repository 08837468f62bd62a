import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent } from '../agent/agent.js';
import { InvalidEventError } from '../errors/invalidEventError.js';
import { CURRENT_SCHEMA_VERSION, type PendingEvent } from '../events/agentEvent.js';
import { initialState } from '../events/agentState.js';
import { createEventDecoder, decodeEvent, defaultUpcasters } from '../events/decodeEvent.js';
import { evolve } from '../events/evolve.js';
import { foldStream } from '../events/foldEvents.js';
import type { StreamEvent } from '../ports/eventStore.js';
import { createInMemoryEventStore } from '../store/inMemoryEventStore.js';
import { tool } from '../tools/createTool.js';
import { stopTool } from '../tools/stopTool.js';
import { requestFingerprint } from '../events/requestFingerprint.js';
import { counterIds, fixedClock } from '../testing/fixedClock.js';
import { given } from '../testing/given.js';
import { scriptedModel, textResponse, toolCallResponse } from '../testing/scriptedModel.js';
import { rejection, testAgent } from './testAgent.js';
import { stored } from './storedEvents.js';

const echo = tool({
  name: 'echo',
  description: 'Echoes its text.',
  parameters: z.object({ text: z.string() }),
  execute: ({ text }) => `echo: ${text}`,
});

describe('events: the stream is the truth', () => {
  it('EVT-1 every message, tool outcome, model response and stop is an event, and the state is their fold', async () => {
    const { agent, events } = await testAgent(
      [toolCallResponse([{ name: 'echo', args: { text: 'hi' }, id: 'c1' }]), textResponse('done')],
      (b) => b.systemPrompt('sys').tools([echo]),
    );
    await agent.query('go');
    const stream = await events();
    expect(stream.map((e) => e.type)).toEqual([
      'RunStarted',
      'SystemPromptAdded',
      'UserMessageQueued',
      'UserMessageAdded',
      'ModelResponded',
      'AssistantMessageAdded',
      'ToolCallStarted',
      'ToolCallCompleted',
      'ModelResponded',
      'AssistantMessageAdded',
      'AgentStopped',
    ]);
    expect(foldStream(stream).state).toStrictEqual(agent.state());
  });

  it('EVT-1 an agent built afresh on the stream at any point has a deep-equal state', async () => {
    const store = createInMemoryEventStore();
    const { agent } = await testAgent(
      [
        toolCallResponse([{ name: 'echo', args: { text: 'a' } }]),
        textResponse('one'),
        textResponse('two'),
      ],
      (b) => b.tools([echo]),
      { store, streamId: 'afresh' },
    );
    await agent.query('first');
    const rebuilt = await Agent.builder()
      .llm(scriptedModel([]))
      .store(store)
      .streamId('afresh')
      .build();
    expect(rebuilt.state()).toStrictEqual(agent.state());
    await agent.query('second');
    const again = await Agent.builder()
      .llm(scriptedModel([]))
      .store(store)
      .streamId('afresh')
      .build();
    expect(again.state()).toStrictEqual(agent.state());
    expect(again.history()).toHaveLength(agent.history().length);
  });

  it('EVT-2 events carry eventId, at and revision from the injected clock and ids', async () => {
    const { events, agent } = await testAgent([textResponse('x')]);
    await agent.query('q');
    const stream = await events();
    expect(stream[0]?.metadata).toEqual({
      eventId: 'id-0001',
      at: '2026-01-01T00:00:00.000Z',
      revision: 0,
      schemaVersion: CURRENT_SCHEMA_VERSION,
    });
    expect(stream.map((e) => e.metadata.revision)).toEqual(stream.map((_e, index) => index));
    expect(stream[1]?.metadata.at).toBe('2026-01-01T00:00:01.000Z');
  });

  it('EVT-2 given/when/then thenMatches compares partially: no fingerprint or id to paste', async () => {
    await given([], (builder) => builder.llm(scriptedModel([textResponse('hello')])))
      .when((agent) => agent.query('hi'))
      .thenMatches([
        { type: 'RunStarted', data: { input: 'hi' } },
        { type: 'UserMessageQueued' },
        { type: 'UserMessageAdded' },
        { type: 'ModelResponded', data: { response: { message: 'hello' } } },
        { type: 'AssistantMessageAdded', data: { message: { text: 'hello' } } },
        { type: 'AgentStopped', data: { cause: 'assistantAnswered' } },
      ]);
    await expect(
      given([], (builder) => builder.llm(scriptedModel([textResponse('hello')])))
        .when((agent) => agent.query('hi'))
        .thenMatches([{ type: 'RunStarted', data: { input: 'bye' } }]),
    ).rejects.toThrow(/differ at \$: expected 1 element/);
  });

  it('EVT-2 given/when/then: a query on a fresh agent appends the expected events', async () => {
    const model = scriptedModel([textResponse('hello')]);
    const requestFingerprintOfHi = requestFingerprint({
      messages: [{ role: 'user', text: 'hi' }],
      tools: [stopTool().spec()],
    });
    await given([], (b) => b.llm(model))
      .when((agent) => agent.query('hi'))
      .then([
        { type: 'RunStarted', data: { mode: 'query', input: 'hi' } },
        { type: 'UserMessageQueued', data: { text: 'hi' } },
        { type: 'UserMessageAdded', data: { text: 'hi' } },
        {
          type: 'ModelResponded',
          data: {
            requestFingerprint: requestFingerprintOfHi,
            response: { message: 'hello', toolCalls: [] },
          },
        },
        {
          type: 'AssistantMessageAdded',
          data: { message: { role: 'assistant', text: 'hello', toolCalls: [] } },
        },
        {
          type: 'AgentStopped',
          data: { reason: { kind: 'noNewMessages' }, cause: 'assistantAnswered' },
        },
      ]);
  });

  it('EVT-2 given/when/then: thenRejects checks the code and what the failed command appended', async () => {
    const spec = () =>
      given([{ type: 'SystemPromptAdded', data: { text: 'sys' } }], (b) =>
        b.llm(scriptedModel([{ throws: new Error('offline') }])),
      ).when((a) => a.run());
    // The system prompt is in the given stream, so this first run adds none; the model throws.
    const agent = await spec().thenRejects('completionFailed', [
      { type: 'RunStarted', data: { mode: 'run' } },
      {
        type: 'AgentStopped',
        data: {
          reason: { kind: 'error', message: 'the completion failed: offline' },
          cause: 'error',
        },
      },
    ]);
    expect(agent.stopReason()?.kind).toBe('error');
    await expect(spec().thenRejects('completionFailed', [])).rejects.toThrow(
      /the command appended/,
    );
    await expect(spec().thenRejects('toolError', [])).rejects.toThrow(
      /expected a rejection with code toolError/,
    );
  });

  it('EVT-3 RunStarted is appended by a call that then rejects', async () => {
    const { agent, types } = await testAgent([{ throws: new Error('down') }]);
    await rejection(agent.query('q'));
    expect((await types())[0]).toBe('RunStarted');
  });

  it('EVT-4 evolve is pure: folding does not change its input and gives equal results twice', () => {
    const events = stored([
      { type: 'RunStarted', data: { mode: 'query', input: 'x' } },
      { type: 'UserMessageQueued', data: { text: 'x' } },
      { type: 'UserMessageAdded', data: { text: 'x' } },
    ]).map((event) => decodeEvent(event));
    const frozen = JSON.stringify(events);
    const once = events.reduce(evolve, initialState);
    const twice = events.reduce(evolve, initialState);
    expect(once).toStrictEqual(twice);
    expect(JSON.stringify(events)).toBe(frozen);
    expect(initialState.history).toEqual([]);
  });

  it('EVT-4 an output for a call that was never made is rejected, naming the event and revision', () => {
    const error = (() => {
      try {
        foldStream(
          stored([
            { type: 'RunStarted', data: { mode: 'run' } },
            {
              type: 'ToolCallCompleted',
              data: { toolCallId: 'ghost', output: { kind: 'text', text: 'boo' } },
            },
          ]),
        );
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(InvalidEventError);
    expect((error as Error).message).toBe(
      'event ToolCallCompleted at revision 1 is invalid: tool call ghost cannot be answered: the model never made it',
    );
  });

  it('EVT-4 a second output for one call and an unknown event type are rejected', () => {
    const call = { id: 'c1', name: 'echo', args: '{}' };
    const base: PendingEvent[] = [
      { type: 'RunStarted', data: { mode: 'run' } },
      {
        type: 'AssistantMessageAdded',
        data: { message: { role: 'assistant', toolCalls: [call] } },
      },
      { type: 'ToolCallStarted', data: { toolCall: call, idempotencyKey: 's:c1' } },
      {
        type: 'ToolCallCompleted',
        data: { toolCallId: 'c1', output: { kind: 'text', text: 'one' } },
      },
    ];
    expect(() => foldStream(stored(base))).not.toThrow();
    expect(() =>
      foldStream(
        stored([
          ...base,
          {
            type: 'ToolCallCompleted',
            data: { toolCallId: 'c1', output: { kind: 'text', text: 'two' } },
          },
        ]),
      ),
    ).toThrow(/already answered/);
    expect(() =>
      foldStream(stored([{ type: 'Mystery', data: {} } as unknown as PendingEvent])),
    ).toThrow('event Mystery at revision 0 is invalid: unknown event type');
    expect(() =>
      foldStream(
        stored([{ type: 'RunStarted', data: { mode: 'sprint' } } as unknown as PendingEvent]),
      ),
    ).toThrow(/RunStarted at revision 0 is invalid: mode/);
  });

  it('EVT-4 building an agent on a contradictory stream fails clearly and leaves the stream alone', async () => {
    const store = createInMemoryEventStore();
    await store.appendToStream(
      'broken',
      [
        {
          type: 'FeedbackConsumed',
          data: { toolCallId: 'x' },
          metadata: { eventId: 'e0', at: '2026-01-01T00:00:00.000Z', schemaVersion: 1 },
        },
      ],
      { expectedRevision: 'noStream' },
    );
    const error = await rejection(
      Agent.builder().llm(scriptedModel([])).store(store).streamId('broken').build(),
    );
    expect(error.message).toBe(
      'stream broken of the in-memory store: event FeedbackConsumed at revision 0 is invalid: tool call x has no decision to consume',
    );
    expect(await store.readStream('broken')).toHaveLength(1);
  });

  it('EVT-4 an event that contradicts the state is rejected when appended, and nothing is stored', async () => {
    const { agent, types } = await testAgent([]);
    const before = await types();
    const error = await rejection(
      agent.context().feedbackReceived({ id: 'nope', name: 'echo' }, { kind: 'approved' }),
    );
    expect(error.message).toMatch(/tool call nope/);
    expect(await types()).toEqual(before);
  });

  it('EVT-5 a stream from a newer schema version is refused with an error naming the event', () => {
    const [event] = stored([{ type: 'RunStarted', data: { mode: 'run' } }]);
    const newer = {
      ...event!,
      metadata: { ...event!.metadata, schemaVersion: CURRENT_SCHEMA_VERSION + 1 },
    };
    expect(() => decodeEvent(newer)).toThrow(
      `RunStarted at revision 0 is invalid: schema version ${CURRENT_SCHEMA_VERSION + 1} is newer`,
    );
  });

  it('EVT-5 older versions are upgraded on read by the upcasters given to the decoder, and refused when none exists', () => {
    const [event] = stored([{ type: 'UserMessageQueued', data: { text: 'x' } }]);
    const legacy = (schemaVersion: number): StreamEvent => ({
      ...event!,
      data: { body: 'legacy text' },
      metadata: { ...event!.metadata, schemaVersion },
    });
    expect(() => decodeEvent(legacy(0))).toThrow(/schema version 0 is not valid/);
    // A table of its own: version 1 of UserMessageQueued stored `body`, and no type has a step
    // beyond version 1.
    const decode = createEventDecoder({
      1: { UserMessageQueued: (data) => ({ text: (data as { body: string }).body }) },
      2: { '*': (data) => data },
      3: { '*': (data) => data },
    });
    const upgraded = decode(legacy(1));
    expect(upgraded.data).toEqual({ text: 'legacy text' });
    expect(upgraded.metadata.schemaVersion).toBe(CURRENT_SCHEMA_VERSION);
    // The default table has no such step, so its identity upcaster leaves a shape that fails.
    expect(() => decodeEvent(legacy(1))).toThrow(
      /UserMessageQueued at revision 0 is invalid: text/,
    );
    // No step for another type, or no step at all: refused, naming the event.
    const [started] = stored([{ type: 'RunStarted', data: { mode: 'run' } }]);
    const oldStarted = { ...started!, metadata: { ...started!.metadata, schemaVersion: 1 } };
    expect(() => decode(oldStarted)).toThrow(
      'event RunStarted at revision 0 is invalid: no upcaster from schema version 1',
    );
    expect(() => createEventDecoder({})(legacy(1))).toThrow(
      'event UserMessageQueued at revision 0 is invalid: no upcaster from schema version 1',
    );
  });

  it('EVT-5 the default upcasters are frozen and step from every version before the current one', () => {
    expect(Object.isFrozen(defaultUpcasters)).toBe(true);
    for (let version = 1; version < CURRENT_SCHEMA_VERSION; version += 1) {
      expect(Object.isFrozen(defaultUpcasters[version])).toBe(true);
      expect(defaultUpcasters[version]?.['*']).toBeTypeOf('function');
    }
  });

  it('EVT-5 a version-1 event decodes to the current version with its data unchanged', () => {
    const v1 = stored([
      {
        type: 'ToolCallCompleted',
        data: { toolCallId: 'c1', output: { kind: 'text', text: 'one' } },
      },
      {
        type: 'AgentStopped',
        data: { reason: { kind: 'other', text: 'enough' }, cause: 'stoppedByCaller' },
      },
    ]).map((event) => ({ ...event, metadata: { ...event.metadata, schemaVersion: 1 } }));
    const before = JSON.stringify(v1);
    const decoded = v1.map(decodeEvent);
    expect(CURRENT_SCHEMA_VERSION).toBe(4);
    expect(decoded.map((event) => event.metadata.schemaVersion)).toEqual([4, 4]);
    expect(decoded.map((event) => event.data)).toEqual(v1.map((event) => event.data));
    expect(decoded[0]?.data).toBe(v1[0]?.data);
    expect(decoded.map((event) => event.metadata.eventId)).toEqual(['e0', 'e1']);
    expect(JSON.stringify(v1)).toBe(before);
  });

  it('EVT-2 the same commands with a fixed clock and ids give byte-identical streams', async () => {
    const script = [toolCallResponse([{ name: 'echo', args: { text: 'a' } }]), textResponse('b')];
    const runOnce = async () => {
      const store = createInMemoryEventStore();
      const agent = await Agent.builder()
        .llm(scriptedModel(script))
        .tools([echo])
        .store(store)
        .streamId('det')
        .clock(fixedClock())
        .ids(counterIds())
        .build();
      await agent.query('go');
      return JSON.stringify(await store.readStream('det'));
    };
    expect(await runOnce()).toBe(await runOnce());
  });
});

describe('event ids', () => {
  it('EVT-2 an ids generator that repeats an id already stored fails the append instead of losing the event', async () => {
    const store = createInMemoryEventStore();
    const first = await Agent.builder()
      .llm(scriptedModel([textResponse('a')]))
      .store(store)
      .streamId('dup')
      .ids(counterIds('same'))
      .build();
    await first.query('one');
    const second = await Agent.builder()
      .llm(scriptedModel([textResponse('b')]))
      .store(store)
      .streamId('dup')
      .ids(counterIds('same'))
      .build();
    const error = await rejection(second.query('two'));
    expect(error.message).toMatch(/ids generator must give unique ids/);
    expect((await store.readStream('dup')).map((e) => e.metadata.eventId)).toEqual(
      (await store.readStream('dup')).map(
        (_e, index) => `same-${String(index + 1).padStart(4, '0')}`,
      ),
    );
  });
});
