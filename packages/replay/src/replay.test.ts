import {
  Agent,
  approvalRequired,
  createInMemoryEventStore,
  ReplayDivergenceError,
  tool,
  ToolFeedback,
  type AgentBuilder,
  type EventStore,
  type StreamEvent,
} from '@agentlog/core';
import {
  counterIds,
  fixedClock,
  scriptedModel,
  textResponse,
  toolCallResponse,
} from '@agentlog/core/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createReplayModel } from './createReplayModel.js';
import { forkStream } from './forkStream.js';
import { replayStream } from './replayStream.js';

function deployTool(runs: string[], label = 'deployed') {
  return tool({
    name: 'deploy',
    description: 'deploys a service',
    parameters: z.object({ service: z.string() }),
    execute: ({ service }) => {
      runs.push(service);
      return `${label} ${service}`;
    },
  });
}

const agentFactory = (runs: string[], label?: string) => (): AgentBuilder =>
  Agent.builder()
    .systemPrompt('You deploy services.')
    .tools([approvalRequired(deployTool(runs, label))]);

/** Records an approval session: ask, approve by ana, run, answer. */
async function recordSession(): Promise<{ events: StreamEvent[]; runs: string[] }> {
  const runs: string[] = [];
  const store = createInMemoryEventStore();
  const agent = await agentFactory(runs)()
    .llm(
      scriptedModel([
        toolCallResponse([{ name: 'deploy', args: { service: 'api' }, id: 'd1' }]),
        textResponse('api is live'),
      ]),
    )
    .store(store)
    .streamId('deploy-api')
    .clock(fixedClock())
    .ids(counterIds('rec'))
    .build();
  await agent.query('Deploy the api');
  await agent.context().feedbackReceived({ id: 'd1', name: 'deploy' }, ToolFeedback.approved(), {
    by: 'ana',
    note: 'ship it',
  });
  await agent.run();
  return { events: await store.readStream('deploy-api'), runs };
}

describe('replay', () => {
  it('RPL-1 the replay model serves recorded answers in order and fails on the first request that differs', async () => {
    const { events } = await recordSession();
    const model = createReplayModel(events);
    const first = await model
      .complete(
        {
          messages: [
            { role: 'system', text: 'You deploy services.' },
            { role: 'user', text: 'Deploy the api' },
          ],
          tools: [],
        },
        {},
      )
      .catch((error: unknown) => error);
    // The tool specs were left out, so the fingerprint differs at completion 0 though the messages match.
    expect(first).toBeInstanceOf(ReplayDivergenceError);
    expect((first as ReplayDivergenceError).index).toBe(0);
    expect((first as ReplayDivergenceError).diff).toMatch(
      /the messages are equal, yet the fingerprint differs: the tool specs or settings differ/,
    );

    const other = createReplayModel(events);
    const changed = await other
      .complete({ messages: [{ role: 'user', text: 'Deploy the web app' }], tools: [] }, {})
      .then(
        () => undefined,
        (error: unknown) => error as ReplayDivergenceError,
      );
    expect(changed?.diff).toContain('$[0].role');
    expect(changed?.message).toMatch(/^the request to the model; completion diverges at 0:/);
  });

  it('RPL-1 recorded answers left unused are an error at the end', async () => {
    const { events } = await recordSession();
    const model = createReplayModel(events);
    expect(model.remaining()).toBe(2);
    expect(() => model.assertDone()).toThrow(/2 recorded response\(s\) were never used/);
  });

  it('RPL-2 a recorded session replays event for event, with recorded tools and with live tools', async () => {
    const { events, runs } = await recordSession();
    expect(runs).toEqual(['api']);
    const recorded = await replayStream(events, { agent: agentFactory([]), tools: 'recorded' });
    expect(recorded.ok).toBe(true);
    expect(recorded.events.map((e) => e.type)).toEqual(events.map((e) => e.type));

    const liveRuns: string[] = [];
    const live = await replayStream(events, { agent: agentFactory(liveRuns), tools: 'live' });
    expect(live.ok).toBe(true);
    expect(liveRuns).toEqual(['api']);
    const decision = live.events.find((e) => e.type === 'FeedbackReceived');
    expect(decision?.data).toEqual({
      toolCallId: 'd1',
      feedback: { kind: 'approved' },
      by: 'ana',
      note: 'ship it',
    });
  });

  it('RPL-2 changed behaviour is reported at the first differing event with a readable diff', async () => {
    const { events } = await recordSession();
    const result = await replayStream(events, {
      agent: agentFactory([], 'shipped'),
      tools: 'live',
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const completed = events.findIndex((e) => e.type === 'ToolCallCompleted');
    expect(result.divergence.index).toBe(completed);
    expect(result.divergence.diff).toContain('$.data.output.text');
    expect(result.divergence.diff).toContain('- "deployed api"');
    expect(result.divergence.diff).toContain('+ "shipped api"');
  });

  it('RPL-2 a different system prompt diverges at its event, naming the field', async () => {
    const { events } = await recordSession();
    const result = await replayStream(events, {
      agent: () =>
        Agent.builder()
          .systemPrompt('You deploy carefully.')
          .tools([approvalRequired(deployTool([]))]),
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.divergence.index).toBe(1);
    expect(result.divergence.diff).toContain(
      'recorded SystemPromptAdded, replayed SystemPromptAdded',
    );
    expect(result.divergence.diff).toContain('$.data.text');
  });

  it('RES-2 a fork of a waiting approval takes the opposite decision; the original stays byte-identical', async () => {
    const runs: string[] = [];
    const store = createInMemoryEventStore();
    const build = (streamId: string, steps: Parameters<typeof scriptedModel>[0]) =>
      agentFactory(runs)()
        .llm(scriptedModel(steps))
        .store(store)
        .streamId(streamId)
        .ids(counterIds(streamId))
        .build();
    const original = await build('release', [
      toolCallResponse([{ name: 'deploy', args: { service: 'api' }, id: 'd1' }]),
      textResponse('done'),
    ]);
    await original.query('Deploy the api');
    const waitingAt = original.state().revision;
    await original
      .context()
      .feedbackReceived({ id: 'd1', name: 'deploy' }, ToolFeedback.approved(), { by: 'ana' });
    await original.run();
    const before = JSON.stringify(await store.readStream('release'));

    await forkStream(store, { from: 'release', atRevision: waitingAt, to: 'release-refused' });
    const fork = await build('release-refused', [textResponse('not deployed, as you wish')]);
    expect(fork.state().forkedFrom).toEqual({ fromStream: 'release', atRevision: waitingAt });
    expect(fork.stopReason()?.kind).toBe('feedbackRequired');
    await fork
      .context()
      .feedbackReceived({ id: 'd1', name: 'deploy' }, ToolFeedback.refused(), { by: 'bo' });
    await fork.run();
    expect(runs).toEqual(['api']);
    expect(fork.history().find((m) => m.role === 'tool')).toMatchObject({
      output: { text: 'This tool call was refused' },
    });
    expect(JSON.stringify(await store.readStream('release'))).toBe(before);

    const replayed = await replayStream(await store.readStream('release-refused'), {
      agent: agentFactory([]),
    });
    if (!replayed.ok) throw replayed.divergence;
    expect(replayed.ok).toBe(true);
  });

  it('RES-2 forking refuses an unknown stream, a revision out of range and an existing target', async () => {
    const store = createInMemoryEventStore();
    await expect(forkStream(store, { from: 'nope', atRevision: 0, to: 'x' })).rejects.toThrow(
      'cannot fork nope: no such stream',
    );
    const events = await seedRecorded(store);
    await expect(forkStream(store, { from: 'rec', atRevision: 999, to: 'x' })).rejects.toThrow(
      `cannot fork rec at revision 999: it has revisions 0 to ${events.length - 1}`,
    );
    await forkStream(store, { from: 'rec', atRevision: 1, to: 'copy' });
    await expect(forkStream(store, { from: 'rec', atRevision: 1, to: 'copy' })).rejects.toThrow(
      'cannot fork into copy: that stream already exists',
    );
  });

  it('RES-2 forking reads the source only up to the fork point, and refuses a revision that is not a whole number', async () => {
    const inner = createInMemoryEventStore();
    await seedRecorded(inner);
    const read: number[] = [];
    const store = {
      ...inner,
      readStream: async (streamId: string, options?: Parameters<typeof inner.readStream>[1]) => {
        const found = await inner.readStream(streamId, options);
        if (streamId === 'rec') read.push(found.length);
        return found;
      },
    };
    await forkStream(store, { from: 'rec', atRevision: 2, to: 'early' });
    expect(read).toEqual([3]);
    expect((await inner.readStream('early')).length).toBe(4);
    await expect(forkStream(store, { from: 'rec', atRevision: 1.5, to: 'y' })).rejects.toThrow(
      'cannot fork rec at revision 1.5: a revision is a whole number of 0 or more',
    );
  });
});

/** Stores a recorded session as stream `rec` and returns its events. */
async function seedRecorded(store: EventStore) {
  const { events } = await recordSession();
  await store.appendToStream(
    'rec',
    events.map(({ type, data, metadata: { revision: _r, ...metadata } }) => ({
      type,
      data,
      metadata,
    })),
    { expectedRevision: 'noStream' },
  );
  return events;
}
