import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  approvalRequired,
  createInMemoryEventStore,
  recordDecision,
  requestRun,
  tool,
  ToolFeedback,
  type EventStore,
} from '@agentlog/core';
import { scriptedModel, textResponse, toolCallResponse } from '@agentlog/core/testing';
import { deployTool } from '../../replay/src/test/deployTool.js';
import { bufferedIo } from './bufferedIo.js';
import { printStreamList } from './listCommand.js';
import { workersReport } from './workersCommand.js';

// The in-memory store keeps a work index with unservedWork and the workers' agent names, so these
// tests drive list and workers through it (SPEC WRK-9); listCommand.test.ts and
// workerCommand.test.ts run the same commands on SQLite.

/** A clock that stands still until the test moves it: the events and the index read it. */
function manualClock() {
  let now = Date.parse('2026-12-01T09:00:00.000Z');
  const clock = () => new Date(now);
  return Object.assign(clock, { advance: (ms: number) => void (now += ms) });
}

/** An agent on `streamId` that calls `deploy`, which waits for a person's decision. */
function deployer(store: EventStore, streamId: string, clock: () => Date) {
  const model = scriptedModel([
    toolCallResponse([{ name: 'deploy', id: 'c1', args: { service: 'api' } }]),
  ]);
  return Agent.builder()
    .llm(model)
    .tools([approvalRequired(deployTool())])
    .store(store)
    .streamId(streamId)
    .clock(clock);
}

/** The in-memory store as the CLI holds an opened store (a SQLite file's kind: it may be written). */
function inMemory(store: EventStore) {
  return { store, kind: 'sqlite' as const, label: 'memory', close: () => Promise.resolve() };
}

/**
 * A store with a served request (`notes-1.4`, agent release-notes, which worker w1 runs), an
 * unserved one (`notes-fr`, agent translator), a decided stream of agent translator (`deploy-fr`,
 * ready), a decided stream that records no agent name (`legacy`), one that waits for a person
 * (`waiting`), and a run of agent summarizer whose lease lapsed (`digest`).
 */
async function storeWithWork() {
  const clock = manualClock();
  const store = createInMemoryEventStore({ clock });
  const outside = { clock };
  for (const [streamId, agent] of [
    ['notes-1.4', 'release-notes'],
    ['notes-fr', 'translator'],
  ] as const)
    await requestRun(store, { streamId, agent, input: 'Draft', ...outside });
  for (const [streamId, name] of [
    ['deploy-fr', 'translator'],
    ['legacy', undefined],
    ['waiting', 'translator'],
  ] as const) {
    const builder = deployer(store, streamId, clock);
    const agent = await (name === undefined ? builder : builder.name(name)).build();
    await agent.query('deploy the api');
    if (streamId !== 'waiting')
      await recordDecision(store, streamId, 'c1', ToolFeedback.approved(), {
        by: 'ana',
        ...outside,
      });
  }
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let started!: () => void;
  const working = new Promise<void>((resolve) => (started = resolve));
  const slow = tool({
    name: 'summarize',
    description: 'takes a while',
    parameters: z.object({}),
    execute: async () => {
      started();
      await released;
      return 'summed up';
    },
  });
  const summarizer = await Agent.builder()
    .llm(scriptedModel([toolCallResponse([{ name: 'summarize', id: 's1' }]), textResponse('done')]))
    .tools([slow])
    .store(store)
    .streamId('digest')
    .name('summarizer')
    .runLease(60_000)
    .clock(clock)
    .build();
  const running = summarizer.query('sum it up');
  await working;
  clock.advance(61_000);
  const work = store.work;
  if (work === undefined) throw new Error('the in-memory store keeps a work index');
  await work.heartbeat({ id: 'w1', host: 'build-3', pid: 41, runs: [], agents: ['release-notes'] });
  const finish = async () => {
    release();
    await running;
  };
  return { store, work, finish };
}

describe('work no live worker can take (SPEC WRK-9)', () => {
  it('WRK-9 workers lists a ready stream whose agent no live worker runs', async () => {
    const { work, finish } = await storeWithWork();
    expect(await workersReport(work)).toEqual([
      'worker  host     pid  agents         runs  heartbeat',
      'w1      build-3  41   release-notes  -     2026-12-01 09:01:01',
      '',
      'needs a worker:',
      '  notes-fr   requested, no worker for agent translator',
      '  deploy-fr  ready, no worker for agent translator',
      '  legacy     ready, no agent name recorded: continue it in code or build its agent with .name(...)',
      '  digest     lease lapsed, no worker for agent summarizer',
    ]);
    await finish();
  });

  it('WRK-9 list says in the work column which streams need work no live worker can take', async () => {
    const { store, finish } = await storeWithWork();
    const out = bufferedIo();
    expect(await printStreamList(inMemory(store), out.io)).toBe(0);
    expect(out.stdout().split('\n')).toEqual([
      'stream     status                                                        last event           events  waiting    work',
      'notes-1.4  pending                                                       2026-12-01 09:00:00  1       -          requested [release-notes]',
      'notes-fr   pending                                                       2026-12-01 09:00:00  1       -          requested, no worker for agent translator',
      'deploy-fr  stopped: approved by ana, not resumed yet (feedbackRequired)  2026-12-01 09:00:00  9       -          ready, no worker for agent translator',
      'legacy     stopped: approved by ana, not resumed yet (feedbackRequired)  2026-12-01 09:00:00  9       -          ready, no agent name recorded: continue it in code or build its agent with .name(...)',
      'waiting    stopped: feedbackRequired (feedbackRequired)                  2026-12-01 09:00:00  8       c1 deploy  waiting [translator]',
      'digest     running                                                       2026-12-01 09:00:00  6       -          lease lapsed, no worker for agent summarizer',
      '',
    ]);
    expect(out.stderr()).toBe('');
    await finish();
  });

  it('WRK-9 with no live worker, workers lists every stream that needs work', async () => {
    const { work, finish } = await storeWithWork();
    await work.retire('w1');
    expect(await workersReport(work)).toEqual([
      'no live worker',
      '',
      'needs a worker:',
      '  notes-1.4  requested, no worker for agent release-notes',
      '  notes-fr   requested, no worker for agent translator',
      '  deploy-fr  ready, no worker for agent translator',
      '  legacy     ready, no agent name recorded: continue it in code or build its agent with .name(...)',
      '  digest     lease lapsed, no worker for agent summarizer',
    ]);
    await finish();
  });

  it('WRK-9 a stream whose agent some live worker runs is not listed as needing a worker', async () => {
    const { work, finish } = await storeWithWork();
    await work.heartbeat({
      id: 'w2',
      host: 'build-4',
      pid: 7,
      runs: [],
      agents: ['translator', 'summarizer'],
    });
    expect(await workersReport(work)).toEqual([
      'worker  host     pid  agents                  runs  heartbeat',
      'w1      build-3  41   release-notes           -     2026-12-01 09:01:01',
      'w2      build-4  7    translator, summarizer  -     2026-12-01 09:01:01',
      '',
      'needs a worker:',
      '  legacy  ready, no agent name recorded: continue it in code or build its agent with .name(...)',
    ]);
    await finish();
  });

  it('REV-1 WRK-9 workers and list show stream ids and agent names from the store with visible escapes', async () => {
    const store = createInMemoryEventStore();
    await requestRun(store, { streamId: 'job', agent: 'tr\u202eanslator\u001b[2J', input: 'go' });
    const work = store.work;
    if (work === undefined) throw new Error('the in-memory store keeps a work index');
    expect(await workersReport(work)).toEqual([
      'no live worker',
      '',
      'needs a worker:',
      '  job  requested, no worker for agent tr\\u202eanslator\\u001b[2J',
    ]);
    const out = bufferedIo();
    await printStreamList(inMemory(store), out.io);
    expect(out.stdout()).toContain('requested, no worker for agent tr\\u202eanslator\\u001b[2J\n');
    expect(out.stdout()).not.toMatch(/[\u001b\u202e]/u);
  });
});
