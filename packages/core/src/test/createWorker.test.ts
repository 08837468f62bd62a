import { describe, expect, it } from 'vitest';
import { recordDecision } from '../commands/recordDecision.js';
import { requestRun } from '../commands/requestRun.js';
import { requestStop } from '../commands/requestStop.js';
import type { AgentBuilder } from '../agent/agentBuilder.js';
import { LeaseLostError } from '../errors/leaseLostError.js';
import { RunOwnedError } from '../errors/runOwnedError.js';
import { runWithChannel } from '../api/runOptions.js';
import { ToolFeedback } from '../messages/toolFeedback.js';
import type { EventStore, StreamEvent } from '../ports/eventStore.js';
import { createInMemoryEventStore } from '../store/inMemoryEventStore.js';
import { approvalRequired } from '../tools/approvalRequired.js';
import { textResponse, toolCallResponse } from '../testing/scriptedModel.js';
import { createWorker } from '../worker/createWorker.js';
import {
  answers,
  builderOf,
  gate,
  startWorker,
  waitFor,
  waitingTool,
  workStore,
} from './workerKit.js';

const types = async (store: EventStore, streamId: string): Promise<string[]> =>
  (await store.readStream(streamId)).map((event) => event.type);
const eventsOf = async (
  store: EventStore,
  streamId: string,
  type: string,
): Promise<StreamEvent[]> =>
  (await store.readStream(streamId)).filter((event) => event.type === type);
const lastAnswer = async (store: EventStore, streamId: string): Promise<unknown> =>
  (
    (await eventsOf(store, streamId, 'ModelResponded')).at(-1)?.data as {
      response: { message?: string };
    }
  ).response.message;
const stopped = (store: EventStore, streamId: string) => async () =>
  (await types(store, streamId)).at(-1) === 'AgentStopped';

describe('workers (SPEC WRK)', () => {
  it('WRK-1 requestRun records RunRequested with the agent name, and refuses bad input and a second request', async () => {
    const { store, work } = workStore();
    await requestRun(store, { streamId: 'job', agent: 'writer', input: 'draft it', by: 'ana' });
    const [requested] = await store.readStream('job');
    expect(requested).toMatchObject({
      type: 'RunRequested',
      data: { agent: 'writer', input: 'draft it', by: 'ana' },
    });
    expect((await work.workOf(['job'])).get('job')).toMatchObject({
      status: 'requested',
      agent: 'writer',
    });
    await expect(
      requestRun(store, { streamId: 'other', agent: 'writer', input: 42 as unknown as string }),
    ).rejects.toMatchObject({ code: 'invalidConfiguration' });
    await expect(
      requestRun(store, { streamId: 'job', agent: 'writer', input: 'again' }),
    ).rejects.toMatchObject({ code: 'alreadyRunning' });
    await expect(requestRun(store, { streamId: 'empty', agent: 'writer' })).rejects.toMatchObject({
      code: 'nothingToRun',
    });
    expect(await store.listStreams()).toEqual(['job']);
    expect(await types(store, 'job')).toEqual(['RunRequested']);
  }, 30_000);

  it('WRK-2 WRK-7 WRK-9 a worker takes a requested run, records who took it, touches no stream that needs nothing, and reports once the one it cannot serve', async () => {
    const { store, polls } = workStore();
    const model = answers([textResponse('drafted'), textResponse('other done')]);
    // A finished stream of the same agent, and a requested one of an agent this worker lacks.
    const finished = await builderOf(model)('done').store(store).streamId('done').build();
    await finished.query('earlier work');
    await requestRun(store, { streamId: 'foreign', agent: 'translator', input: 'hola' });
    const worker = startWorker({ store, agents: { writer: builderOf(model) }, id: 'w1' });
    await requestRun(store, { streamId: 'job', agent: 'writer', input: 'draft it', by: 'ana' });
    await waitFor(stopped(store, 'job'), 'the requested run to end');
    const seen = polls();
    await waitFor(() => polls() >= seen + 3, 'three more polls');
    await worker.stop();

    const [started] = await eventsOf(store, 'job', 'RunStarted');
    expect(started?.data).toEqual({
      mode: 'run',
      input: 'draft it',
      worker: { id: 'w1', host: 'host-w1', pid: process.pid },
      agent: 'writer',
    });
    expect(await types(store, 'job')).toEqual([
      'RunRequested',
      'RunStarted',
      'UserMessageQueued',
      'UserMessageAdded',
      'ModelResponded',
      'AssistantMessageAdded',
      'AgentStopped',
    ]);
    expect(model.calls()).toBe(2);
    expect((await store.readStream('done')).length).toBe((await finished.refresh()).revision + 1);
    expect(await types(store, 'foreign')).toEqual(['RunRequested']);
    // The stream it cannot serve is reported once, not per poll (SPEC WRK-9).
    expect(worker.warnings).toEqual([
      "stream foreign needs a worker for agent translator, which this worker's agents module does not have",
    ]);
  }, 30_000);

  it('WRK-2 a run stopped for approval is continued by a worker once the decision is recorded', async () => {
    const { store, work } = workStore();
    const inner = waitingTool(Promise.resolve());
    const deploy = approvalRequired(inner);
    const model = answers([
      toolCallResponse([{ name: 'work', args: {}, id: 'd1' }]),
      textResponse('deployed'),
    ]);
    const worker = startWorker({
      store,
      agents: { deployer: builderOf(model, [deploy]) },
      id: 'w1',
    });
    await requestRun(store, { streamId: 'job', agent: 'deployer', input: 'ship it' });
    await waitFor(stopped(store, 'job'), 'the stop for approval');
    expect((await work.workOf(['job'])).get('job')?.status).toBe('waiting');
    // No worker runs it now; a person approves from anywhere.
    await recordDecision(store, 'job', 'd1', ToolFeedback.approved(), { by: 'ana' });
    await waitFor(
      async () =>
        (await eventsOf(store, 'job', 'RunStarted')).length === 2 &&
        (await stopped(store, 'job')()),
      'the continued run to end',
    );
    await worker.stop();
    expect(await eventsOf(store, 'job', 'ToolCallCompleted')).toHaveLength(1);
    expect(await lastAnswer(store, 'job')).toBe('deployed');
    expect(inner.invocations()).toBe(1);
  }, 30_000);

  it('WRK-2 WRK-9 an agent that opted out of continuing after a decision records it, so the index never lists the decided stream and no worker rebuilds it', async () => {
    const { store, polls } = workStore();
    const deploy = approvalRequired(waitingTool(Promise.resolve()));
    const model = answers([toolCallResponse([{ name: 'work', args: {}, id: 'd1' }])]);
    let builds = 0;
    const make = builderOf(model, [deploy], (builder) => {
      builds += 1;
      return builder.continueAfterDecision(false);
    });
    const worker = startWorker({ store, agents: { deployer: make }, id: 'w1' });
    await requestRun(store, { streamId: 'job', agent: 'deployer', input: 'ship it' });
    await waitFor(stopped(store, 'job'), 'the stop for approval');
    await recordDecision(store, 'job', 'd1', ToolFeedback.approved());
    const seen = polls();
    await waitFor(() => polls() >= seen + 5, 'five more polls');
    await worker.stop();
    const starts = await eventsOf(store, 'job', 'RunStarted');
    expect(starts).toHaveLength(1);
    expect(starts[0]?.data).toMatchObject({ agent: 'deployer', continueAfterDecision: false });
    expect((await store.work?.workOf(['job']))?.get('job')?.status).toBe('idle');
    expect(builds).toBe(1); // the requested run only: the index knows the decided stream is not a worker's
  }, 30_000);

  it("WRK-2 WRK-4 a run whose lease lapsed by the store's clock is resumed, whatever the worker's clock says", async () => {
    const { store, clock, polls } = workStore();
    const stuck = gate();
    const work = waitingTool(stuck.opened, { idempotent: true });
    const model = answers([toolCallResponse([{ name: 'work', args: {}, id: 'c1' }])]);
    await requestRun(store, { streamId: 'job', agent: 'runner', input: 'go' });
    // A worker that hangs in its tool, as if its process froze: its lease runs out.
    const frozen = await builderOf(model, [work])('job').store(store).streamId('job').build();
    const frozenRun = frozen[runWithChannel](
      'run',
      undefined,
      {},
      {
        worker: { id: 'dead', host: 'h0', pid: 1 },
      },
    );
    await waitFor(
      async () => (await eventsOf(store, 'job', 'ToolCallStarted')).length === 1,
      'the tool to start',
    );
    const after = answers([textResponse('resumed')]);
    // This worker's clock is 10 minutes slow: by it the frozen run looks alive.
    const slowClock = () => new Date(Date.now() - 10 * 60_000);
    const worker = startWorker({
      store,
      agents: { runner: builderOf(after, [work], (builder) => builder.clock(slowClock)) },
      id: 'w2',
    });
    const seen = polls();
    await waitFor(() => polls() >= seen + 3, 'the worker to poll');
    expect(await eventsOf(store, 'job', 'RunStarted')).toHaveLength(1);
    clock.advance(5 * 60_000 + 1);
    await waitFor(
      async () =>
        (await eventsOf(store, 'job', 'RunStarted')).length === 2 &&
        (await stopped(store, 'job')()),
      'the resumed run to end',
    );
    await worker.stop();
    stuck.open();
    // The frozen run's tool returns after another claimed the run: the store refuses its append.
    await expect(frozenRun).rejects.toBeInstanceOf(LeaseLostError);
    const runs = await eventsOf(store, 'job', 'RunStarted');
    expect(runs.at(-1)?.data).toMatchObject({ worker: { id: 'w2' } });
    expect(work.invocations()).toBe(2);
    expect(await lastAnswer(store, 'job')).toBe('resumed');
  }, 30_000);

  it('WRK-3 of many agents racing for one requested run exactly one advances it and the others append nothing', async () => {
    const { store } = workStore();
    const model = answers([textResponse('done')]);
    await requestRun(store, { streamId: 'job', agent: 'writer', input: 'go' });
    const agents = await Promise.all(
      [1, 2, 3, 4, 5].map((n) =>
        builderOf(model)('job')
          .store(store)
          .streamId('job')
          .build()
          .then((agent) => ({ agent, n })),
      ),
    );
    const results = await Promise.allSettled(
      agents.map(({ agent, n }) =>
        agent[runWithChannel]('run', undefined, {}, { worker: { id: `w${n}`, host: 'h', pid: n } }),
      ),
    );
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    for (const result of results) {
      // The store refused their claims: the winner's lease is live (SPEC WRK-4).
      if (result.status === 'rejected') expect(result.reason).toBeInstanceOf(RunOwnedError);
    }
    expect(await eventsOf(store, 'job', 'RunStarted')).toHaveLength(1);
    expect(model.calls()).toBe(1);
  }, 30_000);

  it('WRK-3 five workers polling one store: exactly one takes the requested run', async () => {
    const { store } = workStore();
    const model = answers([textResponse('done')]);
    const workers = [1, 2, 3, 4, 5].map((n) =>
      startWorker({ store, agents: { writer: builderOf(model) }, id: `w${n}` }),
    );
    await requestRun(store, { streamId: 'job', agent: 'writer', input: 'go' });
    await waitFor(stopped(store, 'job'), 'the run to end');
    await Promise.all(workers.map((worker) => worker.stop()));
    expect(await eventsOf(store, 'job', 'RunStarted')).toHaveLength(1);
    expect(model.calls()).toBe(1);
    expect(await types(store, 'job')).toHaveLength(7);
  }, 30_000);

  it('WRK-4 workers whose clocks are 10 minutes off neither take over a live run nor lose their own', async () => {
    const { store, polls } = workStore();
    const long = gate();
    const work = waitingTool(long.opened);
    const model = answers([
      toolCallResponse([{ name: 'work', args: {}, id: 'c1' }]),
      textResponse('finished'),
    ]);
    const minutes = (n: number) => () => new Date(Date.now() + n * 60_000);
    // The holder's clock is 10 minutes slow; the other's 10 minutes fast.
    const holder = startWorker({
      store,
      agents: { runner: builderOf(model, [work], (b) => b.clock(minutes(-10))) },
      id: 'slow',
    });
    await requestRun(store, { streamId: 'job', agent: 'runner', input: 'go' });
    await waitFor(() => work.invocations() === 1, 'the long tool to start');
    const other = startWorker({
      store,
      agents: { runner: builderOf(answers([]), [work], (b) => b.clock(minutes(10))) },
      id: 'fast',
    });
    const seen = polls();
    await waitFor(() => polls() >= seen + 6, 'the fast worker to poll');
    expect(await eventsOf(store, 'job', 'RunStarted')).toHaveLength(1);
    long.open();
    await waitFor(stopped(store, 'job'), 'the run to end');
    await Promise.all([holder.stop(), other.stop()]);
    expect(await lastAnswer(store, 'job')).toBe('finished');
    expect(holder.warnings).toEqual([]);
  }, 30_000);

  it("WRK-4 a worker renews its run's lease while a long tool runs, on the store's clock", async () => {
    const { store, work: index, clock } = workStore();
    const long = gate();
    const work = waitingTool(long.opened);
    const model = answers([
      toolCallResponse([{ name: 'work', args: {}, id: 'c1' }]),
      textResponse('finished'),
    ]);
    const holder = startWorker({
      store,
      agents: { runner: builderOf(model, [work], (b) => b.runLease(3_000)) },
      id: 'w1',
    });
    await requestRun(store, { streamId: 'job', agent: 'runner', input: 'go' });
    await waitFor(() => work.invocations() === 1, 'the long tool to start');
    const leaseUntil = async () =>
      Date.parse((await index.workOf(['job'])).get('job')?.leaseUntil ?? '');
    const first = await leaseUntil();
    clock.advance(2_000);
    await waitFor(async () => (await leaseUntil()) > first, 'a renewal');
    clock.advance(2_000); // past the first lease, within the renewed one
    expect(await index.findWork({ limit: 10, agents: ['runner'] })).toEqual([]);
    long.open();
    await waitFor(stopped(store, 'job'), 'the run to end');
    await holder.stop();
    expect(await eventsOf(store, 'job', 'RunStarted')).toHaveLength(1);
    expect(holder.warnings).toEqual([]);
  }, 30_000);

  it('WRK-4 a stop requested from outside during a live run leaves its lease as the run set it', async () => {
    const { store, work: index } = workStore();
    const long = gate();
    const work = waitingTool(long.opened);
    const model = answers([toolCallResponse([{ name: 'work', args: {}, id: 'c1' }])]);
    const holder = startWorker({
      store,
      agents: { runner: builderOf(model, [work], (b) => b.runLease(3_000)) },
      id: 'w1',
    });
    await requestRun(store, { streamId: 'job', agent: 'runner', input: 'go' });
    await waitFor(() => work.invocations() === 1, 'the long tool to start');
    const before = (await index.workOf(['job'])).get('job');
    await requestStop(store, 'job', { reason: 'enough', by: 'ana' });
    expect((await index.workOf(['job'])).get('job')).toEqual(before);
    long.open();
    await waitFor(stopped(store, 'job'), 'the run to stop');
    await holder.stop();
    expect((await eventsOf(store, 'job', 'AgentStopped'))[0]?.data).toMatchObject({ by: 'ana' });
  }, 30_000);

  it('WRK-4 a worker that learns another took its run over aborts it, and its run appends nothing more', async () => {
    const { store, clock, pauseRenewals } = workStore();
    const long = gate();
    const work = waitingTool(long.opened, { idempotent: true });
    const lease = (b: AgentBuilder) => b.runLease(3_000);
    const holder = startWorker({
      store,
      agents: {
        runner: builderOf(
          answers([toolCallResponse([{ name: 'work', args: {}, id: 'c1' }])]),
          [work],
          lease,
        ),
      },
      id: 'w1',
    });
    await requestRun(store, { streamId: 'job', agent: 'runner', input: 'go' });
    await waitFor(() => work.invocations() === 1, 'the long tool to start');
    // The holder's renewals stall for a moment, and the store's clock passes its lease.
    pauseRenewals(true);
    clock.advance(3_001);
    const taker = startWorker({
      store,
      agents: { runner: builderOf(answers([textResponse('taken over')]), [work], lease) },
      id: 'w2',
    });
    await waitFor(stopped(store, 'job'), 'the other worker to finish the run');
    pauseRenewals(false);
    // The holder learns at its next renewal that the run is not its own any more.
    await waitFor(() => work.abortedWith() instanceof LeaseLostError, 'the holder to abort');
    const before = (await store.readStream('job')).length;
    long.open();
    await Promise.all([holder.stop(), taker.stop()]);
    expect(holder.warnings.join('\n')).toContain("w1 lost the run's lease");
    expect((await store.readStream('job')).length).toBe(before);
    expect(await eventsOf(store, 'job', 'ToolCallCompleted')).toHaveLength(1);
    expect((await eventsOf(store, 'job', 'RunStarted')).map((e) => e.data)).toMatchObject([
      { worker: { id: 'w1' } },
      { worker: { id: 'w2' } },
    ]);
  }, 30_000);

  it('WRK-5 a worker told to stop claims nothing more, lets the step finish, releases the run, and another continues it at once', async () => {
    const { store, work: index } = workStore();
    const slow = gate();
    const work = waitingTool(slow.opened);
    // The model answers the first request; the second hangs until the run is aborted.
    const first = answers([toolCallResponse([{ name: 'work', args: {}, id: 'c1' }])]);
    const one = startWorker({
      store,
      agents: { runner: builderOf(first, [work]) },
      id: 'w1',
      graceMs: 100,
    });
    await requestRun(store, { streamId: 'job', agent: 'runner', input: 'go' });
    await waitFor(() => work.invocations() === 1, 'the tool to start');
    const stopping = one.stop();
    await requestRun(store, { streamId: 'later', agent: 'runner', input: 'later' });
    slow.open();
    await stopping;
    expect(await types(store, 'later')).toEqual(['RunRequested']);
    const completed = await eventsOf(store, 'job', 'ToolCallCompleted');
    expect(completed).toHaveLength(1);
    expect((await eventsOf(store, 'job', 'RunReleased'))[0]?.data).toEqual({
      worker: { id: 'w1', host: 'host-w1', pid: process.pid },
      reason: 'the worker shut down',
    });
    expect((await index.workOf(['job'])).get('job')?.status).toBe('ready');
    expect(await index.listWorkers()).toEqual([]);

    const second = answers([textResponse('continued'), textResponse('later done')]);
    const two = startWorker({ store, agents: { runner: builderOf(second, [work]) }, id: 'w2' });
    await waitFor(
      async () =>
        (await eventsOf(store, 'job', 'RunStarted')).length === 2 &&
        (await stopped(store, 'job')()) &&
        (await stopped(store, 'later')()),
      'the other worker to continue both runs',
    );
    await two.stop();
    expect(work.invocations()).toBe(1);
    expect(await lastAnswer(store, 'job')).toBe('continued');
  }, 30_000);

  it('a store without a work index is refused at once, naming the store', () => {
    const inner = createInMemoryEventStore();
    const { work: _work, ...bare } = inner;
    const store: EventStore = { ...bare, label: 'KurrentDB esdb://localhost' };
    expect(() => createWorker({ store, agents: {} })).toThrow(
      /KurrentDB esdb:\/\/localhost keeps no work index/,
    );
  }, 30_000);
});
