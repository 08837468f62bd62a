import {
  Agent,
  approvalRequired,
  createInMemoryEventStore,
  recordDecision,
  requestRun,
  tool,
  ToolFeedback,
  type AgentBuilder,
} from '@agentlog/core';
import { counterIds, scriptedModel, textResponse, toolCallResponse } from '@agentlog/core/testing';
import { runWithChannel } from '@agentlog/core/replay-kit';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { describeEvent } from '../../cli/src/describeEvent.js';
import { createPainter } from '../../cli/src/painter.js';
import { replayStream } from './replayStream.js';

// A stream that workers ran replays like any other (SPEC RPL-2, WRK-1, WRK-7, EVT-7).

const deploy = approvalRequired(
  tool({ name: 'deploy', description: 'd', parameters: z.object({}), execute: () => 'deployed' }),
);
const agent = (): AgentBuilder => Agent.builder().tools([deploy]);
const worker = { id: 'w1', host: 'build-3', pid: 41 };

describe('replaying a worker’s stream', () => {
  it('WRK-1 WRK-7 RunRequested and the workers’ RunStarted are given again, and inspect names them', async () => {
    const store = createInMemoryEventStore();
    const model = scriptedModel([
      toolCallResponse([{ name: 'deploy', id: 'd1' }]),
      textResponse('shipped'),
    ]);
    await requestRun(store, { streamId: 'job', agent: 'deployer', input: 'ship it', by: 'ana' });
    const build = (prefix: string) =>
      agent().llm(model).store(store).streamId('job').ids(counterIds(prefix)).build();
    await (await build('a'))[runWithChannel]('run', undefined, {}, { worker });
    await recordDecision(store, 'job', 'd1', ToolFeedback.approved(), { by: 'ana' });
    const second = await build('b');
    await second[runWithChannel]('run', undefined, {}, { worker: { ...worker, id: 'w2' } });
    const events = await store.readStream('job');

    const result = await replayStream(events, { agent });
    expect(result.ok ? 'ok' : result.divergence.message).toBe('ok');

    const paint = createPainter({ isTTY: false, env: {} });
    const memory = { calls: new Map(), refusals: new Map() };
    const lines = events
      .map((event, index) =>
        describeEvent(
          event as Parameters<typeof describeEvent>[0],
          events[index + 1] as Parameters<typeof describeEvent>[1],
          memory as Parameters<typeof describeEvent>[2],
          paint,
        ),
      )
      .filter((line) => line !== undefined);
    expect(lines[0]).toBe('⇢ run requested for agent deployer by ana: "ship it"');
    expect(lines[1]).toBe('▶ run "ship it" — run started by worker w1 on host build-3');
  });

  it('WRK-5 a released run replays: RunReleased is given again by the worker that released it', async () => {
    const store = createInMemoryEventStore();
    const model = scriptedModel([
      toolCallResponse([{ name: 'deploy', id: 'd1' }]),
      textResponse('shipped'),
    ]);
    await requestRun(store, { streamId: 'job', agent: 'deployer', input: 'ship it' });
    const first = await agent()
      .llm(model)
      .store(store)
      .streamId('job')
      .ids(counterIds('a'))
      .build();
    await first[runWithChannel]('run', undefined, {}, { worker });
    await first.releaseRun(worker, { reason: 'the worker shut down' });
    const events = await store.readStream('job');
    expect(events.at(-1)?.type).toBe('RunReleased');
    const result = await replayStream(events, { agent });
    expect(result.ok ? 'ok' : result.divergence.message).toBe('ok');
  });
});
