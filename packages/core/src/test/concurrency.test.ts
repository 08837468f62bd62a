import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent } from '../agent/agent.js';
import { foldStream } from '../events/foldEvents.js';
import { ToolFeedback } from '../messages/toolFeedback.js';
import type { EventStore } from '../ports/eventStore.js';
import { createInMemoryEventStore } from '../store/inMemoryEventStore.js';
import { approvalRequired } from '../tools/approvalRequired.js';
import { tool } from '../tools/createTool.js';
import { counterIds } from '../testing/fixedClock.js';
import {
  scriptedModel,
  textResponse,
  toolCallResponse,
  type ScriptStep,
} from '../testing/scriptedModel.js';
import { rejection } from './testAgent.js';

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { open, opened };
}

function deployTool(runs: string[], wait?: Promise<void>) {
  return tool({
    name: 'deploy',
    description: 'deploys',
    parameters: z.object({}),
    execute: async (_args, context) => {
      runs.push(context.streamId);
      await wait;
      return 'deployed';
    },
  });
}

const build = (
  store: EventStore,
  name: string,
  steps: ScriptStep[],
  runs: string[],
  options: { wait?: Promise<void>; now?: () => Date } = {},
) => {
  const builder = Agent.builder()
    .llm(scriptedModel(steps))
    .tools([approvalRequired(deployTool(runs, options.wait))])
    .store(store)
    .streamId('shared')
    .ids(counterIds(name));
  return (options.now ? builder.clock(options.now) : builder).build();
};

const deployCall = () => toolCallResponse([{ name: 'deploy', args: {}, id: 'd1' }]);

/** An approved deploy whose run is in progress in "another process": the tool waits on `slow`. */
async function ownerMidRun() {
  const store = createInMemoryEventStore();
  const runs: string[] = [];
  const slow = gate();
  const owner = await build(store, 'owner', [deployCall(), textResponse('done')], runs, {
    wait: slow.opened,
  });
  await owner.query('deploy');
  await owner.context().feedbackReceived({ id: 'd1', name: 'deploy' }, ToolFeedback.approved());
  const running = owner.run();
  await new Promise((resolve) => setTimeout(resolve, 10));
  return { store, runs, slow, owner, running };
}

describe('two writers on one stream', () => {
  it('RES-3 WRK-4 two agents that resume the same waiting stream at once: one wins, the store refuses the other (runOwned) and it appends nothing', async () => {
    const store = createInMemoryEventStore();
    const runs: string[] = [];
    const first = await build(store, 'setup', [deployCall()], runs);
    await first.query('deploy');
    await first
      .context()
      .feedbackReceived({ id: 'd1', name: 'deploy' }, ToolFeedback.approved(), { by: 'ops' });
    const a = await build(store, 'a', [textResponse('done')], runs);
    const b = await build(store, 'b', [textResponse('done')], runs);
    const results = await Promise.allSettled([a.run(), b.run()]);
    const rejected = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    expect(rejected).toHaveLength(1);
    expect(rejected[0]?.reason).toMatchObject({ code: 'runOwned', streamId: 'shared' });
    expect(runs).toEqual(['shared']);
    const loser = results[0]?.status === 'rejected' ? 'a' : 'b';
    const stream = await store.readStream('shared');
    expect(stream.filter((e) => e.metadata.eventId.startsWith(`${loser}-`))).toEqual([]);
    expect(stream.filter((e) => e.type === 'ToolCallCompleted')).toHaveLength(1);
  });

  it('RES-3 WRK-4 a run in progress in another process owns the stream until its lease runs out by the store clock', async () => {
    const { store, runs, slow, owner, running } = await ownerMidRun();
    expect(runs).toEqual(['shared']);

    const intruder = await build(store, 'intruder', [], runs);
    const before = (await store.readStream('shared')).length;
    const error = await rejection(intruder.run());
    expect(error).toMatchObject({ code: 'runOwned', streamId: 'shared' });
    expect(error.message).toMatch(/has a live run owned by .*the store refused the claim/);
    expect(await store.readStream('shared')).toHaveLength(before);

    slow.open();
    await running;
    expect(owner.stopReason()?.kind).toBe('noNewMessages');
    expect(runs).toEqual(['shared']);
  });

  it('RES-3 TOOL-7 WRK-4 past the lease by the store clock a run that stopped appending counts as crashed and may be resumed', async () => {
    let offsetMs = 0;
    const store = createInMemoryEventStore({ clock: () => new Date(Date.now() + offsetMs) });
    const runs: string[] = [];
    const never = new Promise<void>(() => undefined);
    const crashed = await Agent.builder()
      .llm(scriptedModel([toolCallResponse([{ name: 'deploy', args: {}, id: 'd1' }])]))
      .tools([deployTool(runs, never)])
      .store(store)
      .streamId('shared')
      .ids(counterIds('crashed'))
      .build();
    void crashed.query('deploy');
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(crashed.state().toolCalls.d1?.status).toBe('started');

    const rescuer = await build(store, 'rescuer', [textResponse('done')], runs);
    // Live by the store's clock: refused, whatever the rescuer's own clock says.
    await expect(rescuer.run()).rejects.toMatchObject({ code: 'runOwned' });
    offsetMs = 10 * 60_000;
    await expect(rescuer.run()).rejects.toMatchObject({ code: 'unfulfilledToolCalls' });
    expect(rescuer.pendingFeedback()).toMatchObject([{ toolCall: { id: 'd1' }, ambiguous: true }]);
  });

  it('RES-3 HITL-3 a decision on a call whose invocation is in flight is refused; once the call asks, it is accepted', async () => {
    const store = createInMemoryEventStore();
    const runs: string[] = [];
    const slow = gate();
    const owner = await Agent.builder()
      .llm(
        scriptedModel([
          toolCallResponse([
            { name: 'deploy', args: {}, id: 'd1' },
            { name: 'approve_me', args: {}, id: 'a1' },
          ]),
        ]),
      )
      .tools([
        deployTool(runs, slow.opened),
        approvalRequired(
          tool({
            name: 'approve_me',
            description: 'a',
            parameters: z.object({}),
            execute: () => 'ok',
          }),
        ),
      ])
      .store(store)
      .streamId('shared')
      .ids(counterIds('owner'))
      .build();
    const running = owner.query('go').catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(owner.state().toolCalls.a1?.status).toBe('started');

    // While deploy runs, a reviewer in another process tries to approve the other call: its
    // invocation is in flight (its request is not recorded yet), so the decision is refused.
    const reviewer = await build(store, 'reviewer', [], runs);
    await expect(
      reviewer
        .context()
        .feedbackReceived({ id: 'a1', name: 'approve_me' }, ToolFeedback.approved(), { by: 'ana' }),
    ).rejects.toMatchObject({ code: 'invalidFeedback', message: /invocation is running/ });
    slow.open();
    expect(await running).toBeUndefined();
    expect(owner.stopReason()?.kind).toBe('feedbackRequired');
    await reviewer
      .context()
      .feedbackReceived({ id: 'a1', name: 'approve_me' }, ToolFeedback.approved(), { by: 'ana' });
    const types = (await store.readStream('shared')).map(
      (e) => `${e.type}:${e.metadata.eventId.split('-')[0]}`,
    );
    expect(types.at(-1)).toBe('FeedbackReceived:reviewer');
    await owner.refresh();
    expect(owner.state().feedback.a1).toMatchObject({ by: 'ana' });
  });

  it('RES-3 a decision on a waiting call, recorded by another process during a run, is folded in and the run carries on', async () => {
    const store = createInMemoryEventStore();
    const runs: string[] = [];
    const slow = gate();
    const gated = approvalRequired(
      tool({ name: 'approve_me', description: 'a', parameters: z.object({}), execute: () => 'ok' }),
    );
    const echo = tool({
      name: 'echo',
      description: 'e',
      parameters: z.object({}),
      execute: () => 'e',
    });
    const owner = await Agent.builder()
      .llm(
        scriptedModel([
          // The approval is shadowed by its sibling's output (HITL-5): it stays waiting.
          toolCallResponse([
            { name: 'approve_me', args: {}, id: 'a1' },
            { name: 'echo', args: {}, id: 'e1' },
          ]),
          toolCallResponse([{ name: 'deploy', args: {}, id: 'd1' }]),
          textResponse('done'),
        ]),
      )
      .tools([deployTool(runs, slow.opened), gated, echo])
      .store(store)
      .streamId('shared')
      .ids(counterIds('owner'))
      .build();
    await owner.query('first');
    expect(owner.pendingFeedback().map((call) => call.toolCall.id)).toEqual(['a1']);
    const running = owner.query('go').catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 10));
    // While deploy runs, a reviewer in another process approves the waiting call.
    const reviewer = await build(store, 'reviewer', [], runs);
    await reviewer
      .context()
      .feedbackReceived({ id: 'a1', name: 'approve_me' }, ToolFeedback.approved(), { by: 'ana' });
    slow.open();
    expect(await running).toBeUndefined();
    const types = (await store.readStream('shared')).map(
      (e) => `${e.type}:${e.metadata.eventId.split('-')[0]}`,
    );
    expect(types.slice(types.indexOf('FeedbackReceived:reviewer') + 1)[0]).toBe(
      'ToolCallCompleted:owner',
    );
    expect(owner.state().feedback.a1).toMatchObject({ by: 'ana' });
  });

  it('RES-3 HITL-12 a stop from another process asks the live run to stop; a summary is refused', async () => {
    const { store, runs, slow, owner, running } = await ownerMidRun();
    const other = await build(store, 'other', [], runs);
    await other.stop('halt');
    await expect(other.addSummary('s')).rejects.toMatchObject({ code: 'alreadyRunning' });
    slow.open();
    await running;
    // The run finished its step, then honoured the request instead of asking the model again.
    expect(owner.stopReason()).toEqual({ kind: 'other', text: 'halt' });
    const types = (await store.readStream('shared')).map((event) => event.type);
    expect(types.slice(-4)).toEqual([
      'StopRequested',
      'FeedbackConsumed',
      'ToolCallCompleted',
      'AgentStopped',
    ]);
  });

  it("RES-3 an agent that lost a race shows the winner's events, not a run that looks alive", async () => {
    const store = createInMemoryEventStore();
    const runs: string[] = [];
    const first = await build(store, 'setup', [deployCall()], runs);
    await first.query('deploy');
    await first.context().feedbackReceived({ id: 'd1', name: 'deploy' }, ToolFeedback.approved());
    const a = await build(store, 'a', [textResponse('done')], runs);
    const b = await build(store, 'b', [textResponse('done')], runs);
    const results = await Promise.allSettled([a.run(), b.run()]);
    const loser = results[0].status === 'rejected' ? a : b;
    const stream = await store.readStream('shared');
    // The loser's view is the fold of what the stream really holds, not a run of its own.
    expect(loser.state()).toStrictEqual(
      foldStream(stream.slice(0, loser.state().revision + 1)).state,
    );
    expect(loser.state().revision).toBeGreaterThan(
      stream.findIndex((e) => e.type === 'FeedbackReceived'),
    );
  });
});
