import { describe, expect, it } from 'vitest';
import { Agent, createInMemoryEventStore, type NewStreamEvent } from '@agentlog/core';
import { scriptedModel, textResponse } from '@agentlog/core/testing';

// The rule lives in @agentlog/core (store/streamValidation.ts); the CLI shows stream ids, so it
// is checked here, against the in-memory store and the builder (SPEC REV-1).
const refused: ReadonlyArray<readonly [string, string, string]> = [
  ['C0 ESC', 'run\u001b[2J', 'control character U+001B'],
  ['DEL', 'run\u007f', 'control character U+007F'],
  ['C1 CSI', 'run\u009b2J', 'control character U+009B'],
  ['C1 NEL', 'run\u0085', 'control character U+0085'],
  ['right-to-left override', 'invoice\u202efdp.exe', 'bidi control U+202E'],
  ['right-to-left isolate', 'run\u2067x', 'bidi control U+2067'],
  ['Arabic letter mark', 'run\u061c', 'bidi control U+061C'],
  ['left-to-right mark', 'run\u200e', 'bidi control U+200E'],
  ['zero-width space', 'ru\u200bn', 'zero-width character U+200B'],
  ['zero-width joiner', 'ru\u200dn', 'zero-width character U+200D'],
  ['word joiner', 'ru\u2060n', 'zero-width character U+2060'],
  ['byte order mark', '\ufeffrun', 'zero-width character U+FEFF'],
  ['soft hyphen', 'ru\u00adn', 'zero-width character U+00AD'],
  ['line separator', 'run\u2028x', 'line separator U+2028'],
];

const event: NewStreamEvent = {
  type: 'RunStarted',
  data: { mode: 'query', input: 'hi' },
  metadata: { eventId: 'e1', at: '2026-11-30T09:00:00.000Z', schemaVersion: 1 },
};

describe('stream ids', () => {
  it.each(refused)(
    'REV-1 stream ids refuse a %s in the in-memory store',
    async (_, id, problem) => {
      const store = createInMemoryEventStore();
      const appending = store.appendToStream(id, [event], { expectedRevision: 'noStream' });
      await expect(appending).rejects.toMatchObject({ code: 'invalidStreamId' });
      await expect(appending).rejects.toThrow(`it contains the ${problem} at character`);
      await expect(store.readStream(id)).rejects.toMatchObject({ code: 'invalidStreamId' });
      expect(await store.listStreams()).toEqual([]);
    },
  );

  it.each(refused)('REV-1 stream ids refuse a %s in the builder', async (_, id) => {
    const store = createInMemoryEventStore();
    const building = Agent.builder()
      .llm(scriptedModel([textResponse('hi')]))
      .store(store)
      .streamId(id)
      .build();
    await expect(building).rejects.toMatchObject({ code: 'invalidStreamId' });
    expect(await store.listStreams()).toEqual([]);
  });

  it('REV-1 stream ids keep accepting printable text in any script', async () => {
    const store = createInMemoryEventStore();
    for (const id of ['release-0.34', 'été:2026', '日本語 run', 'esc<ape>', 'a😀b'])
      await store.appendToStream(id, [event], { expectedRevision: 'noStream' });
    expect(await store.listStreams()).toHaveLength(5);
  });
});
