import { describe, expect, it } from 'vitest';
import { Agent } from '../agent/agent.js';
import { foldStream } from '../events/foldEvents.js';
import type { EventStore, ReadStreamOptions } from '../ports/eventStore.js';
import { createInMemoryEventStore } from '../store/inMemoryEventStore.js';
import { foldOfStream, foldPageSize } from '../writer/foldCache.js';
import { InvalidEventError } from '../errors/invalidEventError.js';
import { counterIds, fixedClock } from '../testing/fixedClock.js';
import { scriptedModel, textResponse } from '../testing/scriptedModel.js';

// A new agent on a stream this process already folded starts from that fold, after checking that
// the store still holds its last event at its revision; otherwise it folds the whole stream.

/** A store whose streams can be swapped for another store's, recording what is read. */
function swappableStore(): {
  store: EventStore;
  reads: (ReadStreamOptions | undefined)[];
  swap: (next: EventStore) => void;
} {
  let inner = createInMemoryEventStore();
  const reads: (ReadStreamOptions | undefined)[] = [];
  const store: EventStore = {
    appendToStream: (streamId, events, options) => inner.appendToStream(streamId, events, options),
    readStream: (streamId, options) => {
      reads.push(options);
      return inner.readStream(streamId, options);
    },
    subscribeToStream: (streamId, options) => inner.subscribeToStream(streamId, options),
    listStreams: () => inner.listStreams(),
  };
  return { store, reads, swap: (next) => (inner = next) };
}

async function agentOn(store: EventStore, answers: string[], warnings: string[] = [], ids = 'a') {
  return Agent.builder()
    .llm(scriptedModel(answers.map((text) => textResponse(text))))
    .store(store)
    .streamId('cached')
    .clock(fixedClock())
    .ids(counterIds(ids))
    .logger({ warn: (message) => warnings.push(message) })
    .build();
}

describe('the fold a process keeps of a stream', () => {
  it('RES-1 a new agent reads only what follows the fold it starts from, and its state is the fold of the whole stream', async () => {
    const { store, reads } = swappableStore();
    const first = await agentOn(store, ['one', 'two']);
    await first.query('hello');
    await first.query('again');
    const revision = first.state().revision;
    reads.length = 0;
    const second = await agentOn(store, ['three'], [], 'b');
    expect(reads[0]).toEqual({ fromRevision: revision, maxCount: foldPageSize });
    const whole = foldStream(await store.readStream('cached')).state;
    expect(second.state()).toStrictEqual(whole);
    await second.query('and again');
    expect(second.history().map((message) => ('text' in message ? message.text : ''))).toEqual([
      'hello',
      'one',
      'again',
      'two',
      'and again',
      'three',
    ]);
  });

  it('RES-1 a kept fold that no longer matches the stream is discarded with a warning, and the stream is folded from its start', async () => {
    const { store, swap } = swappableStore();
    await (await agentOn(store, ['one'])).query('hello');
    // The stream is replaced behind the process's back: other events at the same revisions.
    const other = createInMemoryEventStore();
    await (await agentOn(other, ['something else'], [], 'z')).query('a different start');
    swap(other);
    const warnings: string[] = [];
    const rebuilt = await agentOn(store, [], warnings);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /stream cached: the fold this process kept up to revision \d+ no longer matches the store/,
    );
    expect(rebuilt.state()).toStrictEqual(foldStream(await other.readStream('cached')).state);
    expect(rebuilt.history()[0]).toEqual({ role: 'user', text: 'a different start' });
  });

  it('RES-1 a stream is read in pages, each from where the last ended, until a short page, and its state is the fold of the whole stream', async () => {
    const source = createInMemoryEventStore();
    await (await agentOn(source, ['one', 'two'])).query('hello');
    const whole = await source.readStream('cached');
    const { store, reads, swap } = swappableStore();
    swap(source);
    const { state } = await foldOfStream(store, 'cached', () => undefined, 2);
    expect(state).toStrictEqual(foldStream(whole).state);
    expect(reads).toEqual(
      Array.from({ length: Math.floor(whole.length / 2) + 1 }, (_, page) => ({
        fromRevision: page * 2,
        maxCount: 2,
      })),
    );
  });

  it('RES-1 a kept fold is carried on in pages from its revision', async () => {
    const source = createInMemoryEventStore();
    const { store, reads, swap } = swappableStore();
    swap(source);
    await (await agentOn(store, ['one'])).query('hello');
    const revision = (await foldOfStream(store, 'cached', () => undefined)).state.revision;
    // Another process appends to the stream behind this one's back.
    await (await agentOn(source, ['two', 'three'], [], 'b')).query('again');
    reads.length = 0;
    const { state } = await foldOfStream(store, 'cached', () => undefined, 2);
    const whole = await source.readStream('cached');
    expect(state).toStrictEqual(foldStream(whole).state);
    expect(reads[0]).toEqual({ fromRevision: revision, maxCount: 2 });
    expect(reads[1]).toEqual({ fromRevision: revision + 2, maxCount: 2 });
    expect(reads.at(-1)?.fromRevision).toBeGreaterThan(whole.length - 3);
  });

  it('EVT-4 a page that does not start where the last ended is a gap, named with the stream', async () => {
    const source = createInMemoryEventStore();
    await (await agentOn(source, ['one'])).query('hello');
    const skipping: EventStore = {
      ...source,
      readStream: (streamId, options) =>
        source.readStream(streamId, {
          ...options,
          ...(options?.fromRevision === 2 ? { fromRevision: 3 } : {}),
        }),
    };
    const folding = foldOfStream(skipping, 'cached', () => undefined, 2);
    await expect(folding).rejects.toThrow(InvalidEventError);
    await expect(folding).rejects.toThrow(/cached[\s\S]*expected revision 2/);
  });
});
