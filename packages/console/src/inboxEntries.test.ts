import { describe, expect, it } from 'vitest';
import { Agent, approvalRequired, createInMemoryEventStore, type EventStore } from '@agentlog/core';
import { scriptedModel, textResponse, toolCallResponse } from '@agentlog/core/testing';
import { recordReviewerDecision, type DecisionRequest } from './recordReviewerDecision.js';
import { decisionOf } from './decisionOf.js';
import { inboxEntries } from './inboxEntries.js';
import { deployTool } from '../../replay/src/test/deployTool.js';

/** Stops `streamId` on a `deploy` call d1 that waits for approval. */
async function waitOn(store: EventStore, streamId: string): Promise<void> {
  const deploy = deployTool();
  const agent = await Agent.builder()
    .llm(
      scriptedModel([
        toolCallResponse([{ name: 'deploy', args: { service: streamId }, id: 'd1' }]),
        textResponse('done'),
      ]),
    )
    .tools([approvalRequired(deploy)])
    .store(store)
    .streamId(streamId)
    .logger({ warn: () => undefined })
    .build();
  await agent.query('Deploy');
}

/** The store without its work index, as a store that keeps none. */
function withoutIndex(store: EventStore): EventStore {
  const { work: _work, ...rest } = store;
  return rest;
}

describe('the inbox entries', () => {
  it('HITL-12: on a store without a work index, asking again reads only what was appended since (the fold of each stream continues), and the answer is the same as a fresh fold', async () => {
    const store = createInMemoryEventStore();
    await waitOn(store, 'deploy-a');
    await waitOn(store, 'deploy-b');
    let eventsRead = 0;
    const counting: EventStore = {
      ...withoutIndex(store),
      listStreams: () => store.listStreams(),
      subscribeToStream: (...args) => store.subscribeToStream(...args),
      appendToStream: (...args) => store.appendToStream(...args),
      readStream: async (streamId, options) => {
        const events = await store.readStream(streamId, options);
        eventsRead += events.length;
        return events;
      },
    };
    const length = async (streamId: string) => (await store.readStream(streamId)).length;
    const first = await inboxEntries(counting);
    expect(first.entries.map((entry) => [entry.streamId, entry.toolCallId])).toEqual([
      ['deploy-a', 'd1'],
      ['deploy-b', 'd1'],
    ]);
    expect(eventsRead).toBe((await length('deploy-a')) + (await length('deploy-b')));

    // Nothing appended: each stream's last folded event is read again to check it, nothing more.
    eventsRead = 0;
    expect(await inboxEntries(counting)).toEqual(first);
    expect(eventsRead).toBeLessThanOrEqual(2);

    const approve = decisionOf({ streamId: 'deploy-a', toolCallId: 'd1', decision: 'approve' });
    expect((await recordReviewerDecision(store, approve as DecisionRequest, 'ana')).ok).toBe(true);
    eventsRead = 0;
    const after = await inboxEntries(counting);
    expect(after.entries.map((entry) => entry.streamId)).toEqual(['deploy-b']);
    expect(eventsRead).toBeLessThanOrEqual(2 + 1);
    expect(await inboxEntries({ ...counting })).toEqual(after);

    await waitOn(store, 'deploy-c');
    expect((await inboxEntries(counting)).entries.map((entry) => entry.streamId)).toEqual([
      'deploy-b',
      'deploy-c',
    ]);
  });

  it('a stream that cannot be folded is reported beside the others, which still show', async () => {
    const store = createInMemoryEventStore();
    await waitOn(store, 'deploy-a');
    const broken: EventStore = {
      ...withoutIndex(store),
      listStreams: async () => ['damaged', ...(await store.listStreams())],
      subscribeToStream: (...args) => store.subscribeToStream(...args),
      appendToStream: (...args) => store.appendToStream(...args),
      readStream: async (streamId, options) => {
        if (streamId === 'damaged') throw new Error('row 3 of damaged is not JSON');
        return store.readStream(streamId, options);
      },
    };
    const { entries, unreadable } = await inboxEntries(broken);
    expect(entries.map((entry) => entry.streamId)).toEqual(['deploy-a']);
    expect(unreadable.map(({ streamId, error }) => [streamId, error.message])).toEqual([
      ['damaged', 'stream damaged: the store failed to read: row 3 of damaged is not JSON'],
    ]);
  });

  it('HITL-12 WRK-2: on a store with a work index, only the streams it does not list as idle are read, and a decision takes a stream out', async () => {
    const store = createInMemoryEventStore();
    await waitOn(store, 'deploy-a');
    await waitOn(store, 'deploy-b');
    await store.appendToStream('finished', (await store.readStream('deploy-a')).slice(0, 1), {
      expectedRevision: 'noStream',
      work: { status: 'idle' },
    });
    const reads: string[] = [];
    const counting: EventStore = {
      ...store,
      listStreams: () => store.listStreams(),
      subscribeToStream: (...args) => store.subscribeToStream(...args),
      appendToStream: (...args) => store.appendToStream(...args),
      readStream: (streamId, options) => {
        reads.push(streamId);
        return store.readStream(streamId, options);
      },
    };
    expect((await store.work?.workOf())?.get('deploy-a')?.status).toBe('waiting');
    const first = await inboxEntries(counting);
    expect(first.entries.map((entry) => [entry.streamId, entry.toolCallId])).toEqual([
      ['deploy-a', 'd1'],
      ['deploy-b', 'd1'],
    ]);
    expect(reads).not.toContain('finished');
    expect(new Set(reads)).toEqual(new Set(['deploy-a', 'deploy-b']));
    // The same answer as folding every stream, without the index.
    expect(await inboxEntries(withoutIndex(counting))).toEqual(first);

    const approve = decisionOf({ streamId: 'deploy-a', toolCallId: 'd1', decision: 'approve' });
    expect((await recordReviewerDecision(store, approve as DecisionRequest, 'ana')).ok).toBe(true);
    expect((await store.work?.workOf())?.get('deploy-a')?.status).toBe('ready');
    expect((await inboxEntries(counting)).entries.map((entry) => entry.streamId)).toEqual([
      'deploy-b',
    ]);
  });
});
