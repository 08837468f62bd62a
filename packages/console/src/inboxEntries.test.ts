import { describe, expect, it } from 'vitest';
import { Agent, approvalRequired, createInMemoryEventStore, type EventStore } from '@agentlog/core';
import { scriptedModel, textResponse, toolCallResponse } from '@agentlog/core/testing';
import { recordReviewerDecision, type DecisionRequest } from './recordReviewerDecision.js';
import { decisionOf } from './decisionOf.js';
import { inboxEntries, type InboxMemo } from './inboxEntries.js';
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
  it('HITL-12: on a store without a work index, with a memo, only streams appended to since the last call are read in full again, and the answer is the same as without it', async () => {
    const store = createInMemoryEventStore();
    await waitOn(store, 'deploy-a');
    await waitOn(store, 'deploy-b');
    const fullReads: string[] = [];
    const counting: EventStore = {
      ...withoutIndex(store),
      listStreams: () => store.listStreams(),
      subscribeToStream: (...args) => store.subscribeToStream(...args),
      appendToStream: (...args) => store.appendToStream(...args),
      readStream: (streamId, options) => {
        if (options?.maxCount !== 1) fullReads.push(streamId);
        return store.readStream(streamId, options);
      },
    };
    const memo: InboxMemo = new Map();
    const first = await inboxEntries(counting, memo);
    expect(first.map((entry) => [entry.streamId, entry.toolCallId])).toEqual([
      ['deploy-a', 'd1'],
      ['deploy-b', 'd1'],
    ]);
    expect(new Set(fullReads)).toEqual(new Set(['deploy-a', 'deploy-b']));

    fullReads.length = 0;
    expect(await inboxEntries(counting, memo)).toEqual(first);
    expect(fullReads).toEqual([]);

    const approve = decisionOf({ streamId: 'deploy-a', toolCallId: 'd1', decision: 'approve' });
    expect((await recordReviewerDecision(store, approve as DecisionRequest, 'ana')).ok).toBe(true);
    const after = await inboxEntries(counting, memo);
    expect(after.map((entry) => entry.streamId)).toEqual(['deploy-b']);
    expect(new Set(fullReads)).toEqual(new Set(['deploy-a']));
    expect(await inboxEntries({ ...counting })).toEqual(after);

    await waitOn(store, 'deploy-c');
    expect((await inboxEntries(counting, memo)).map((entry) => entry.streamId)).toEqual([
      'deploy-b',
      'deploy-c',
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
    expect(first.map((entry) => [entry.streamId, entry.toolCallId])).toEqual([
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
    expect((await inboxEntries(counting)).map((entry) => entry.streamId)).toEqual(['deploy-b']);
  });
});
