import { describe, expect, it } from 'vitest';
import type { AgentEvent } from './agentEvent.js';
import { checkStream } from './checkStream.js';
import { foldEvents } from './foldEvents.js';

const at = '2026-01-01T00:00:00.000Z';
const meta = (revision: number) => ({ eventId: `e${revision}`, at, schemaVersion: 4, revision });
const call = { id: 'c1', name: 'ping', args: '{}' };
const events = [
  { type: 'RunStarted', data: { mode: 'query', input: 'go' }, metadata: meta(0) },
  { type: 'UserMessageQueued', data: { text: 'go' }, metadata: meta(1) },
  { type: 'UserMessageAdded', data: { text: 'go' }, metadata: meta(2) },
  {
    type: 'AssistantMessageAdded',
    data: { message: { role: 'assistant', toolCalls: [call] } },
    metadata: meta(3),
  },
] as unknown as AgentEvent[];

describe('a published state (issue 21: one hidden class, shared getters)', () => {
  it('EVT-1 its collections are enumerable own properties, built once and frozen', () => {
    const state = foldEvents(events);
    for (const key of ['history', 'toolCalls', 'failureCounts']) {
      const descriptor = Object.getOwnPropertyDescriptor(state, key);
      expect(descriptor?.enumerable).toBe(true);
      expect(typeof descriptor?.get).toBe('function');
    }
    expect(state.history).toBe(state.history);
    expect(state.toolCalls).toBe(state.toolCalls);
    expect(Object.isFrozen(state.history)).toBe(true);
    expect(Object.keys(state.toolCalls)).toEqual(['c1']);
    // Hidden keys stay hidden: JSON, keys and a spread see the fields a parsed state has.
    const parsed = JSON.parse(JSON.stringify(state)) as Record<string, unknown>;
    expect({ ...state }).toStrictEqual(parsed);
    expect(Reflect.ownKeys(parsed)).toEqual(Object.keys(state));
  });

  it('EVT-1 a state its reader froze still reads its collections (built again each time)', () => {
    const state = Object.freeze(foldEvents(events));
    expect(state.history.map((message) => message.role)).toEqual(['user', 'assistant']);
    expect(state.history).toEqual(state.history);
    expect(state.toolCalls.c1?.status).toBe('open');
  });

  it('EVT-4 two states of one lineage each build their own collections', () => {
    const before = foldEvents(events.slice(0, 3));
    const after = foldEvents(events.slice(3), before);
    expect(before.history).toHaveLength(1);
    expect(after.history).toHaveLength(2);
    expect(before.toolCalls).toEqual({});
  });

  it('a state from checkStream throws on the collections it did not keep', () => {
    const state = checkStream(events);
    expect(Object.keys(state.toolCalls)).toEqual(['c1']);
    expect(() => state.history).toThrow(/keeps no history/);
    expect(() => state.failureCounts).toThrow(/keeps no failure counts/);
  });
});
