import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { Agent } from '../agent/agent.js';
import type { RunOptions } from '../api/runOptions.js';
import { recordDecision } from '../commands/recordDecision.js';
import { LeaseLostError } from '../errors/leaseLostError.js';
import { keepRunLease } from '../loop/keepRunLease.js';
import { ToolFeedback } from '../messages/toolFeedback.js';
import type { EventStore } from '../ports/eventStore.js';
import type { WorkIndex } from '../ports/workIndex.js';
import { createInMemoryEventStore } from '../store/inMemoryEventStore.js';
import { counterIds } from '../testing/fixedClock.js';
import { scriptedModel, textResponse, toolCallResponse } from '../testing/scriptedModel.js';
import { approvalRequired } from '../tools/approvalRequired.js';
import { tool } from '../tools/createTool.js';
import { answers, builderOf, gate, startWorker, waitFor, waitingTool } from './workerKit.js';

/** An in-memory store whose clock the test moves on. */
function storeOnOffset(): {
  store: ReturnType<typeof createInMemoryEventStore>;
  pass: (ms: number) => void;
} {
  let offsetMs = 0;
  const store = createInMemoryEventStore({ clock: () => new Date(Date.now() + offsetMs) });
  return { store, pass: (ms) => void (offsetMs += ms) };
}

const types = async (store: { readStream(id: string): Promise<{ type: string }[]> }, id: string) =>
  (await store.readStream(id)).map((event) => event.type);

/** The work-index entries of these streams. */
async function workOf(store: EventStore, ...ids: string[][]) {
  if (store.work === undefined) throw new Error('the store keeps no work index');
  return store.work.workOf(...ids);
}

afterEach(() => {
  vi.useRealTimers();
});

describe('the fence (SPEC WRK-4, WRK-8, WRK-9)', () => {
  it('WRK-4 a caller cannot skip the fence: no run option makes a live run of another process look crashed', async () => {
    const { store } = storeOnOffset();
    const slow = gate();
    const owner = await builderOf(
      answers([toolCallResponse([{ name: 'work', args: {}, id: 'w1' }]), textResponse('done')]),
      [waitingTool(slow.opened, { idempotent: true })],
    )('s')
      .store(store)
      .streamId('s')
      .build();
    const running = owner.query('go');
    await waitFor(async () => (await types(store, 's')).includes('ToolCallStarted'), 'the tool');
    const intruder = await builderOf(answers([]))('s').store(store).streamId('s').build();
    const before = (await store.readStream('s')).length;
    // The flag of the old surface is no option any more: passed anyway, it changes nothing.
    const forged = { leaseLapsed: true, worker: { id: 'x', host: 'h', pid: 1 } } as RunOptions;
    await expect(intruder.run(forged)).rejects.toMatchObject({ code: 'runOwned', streamId: 's' });
    expect((await store.readStream('s')).length).toBe(before);
    slow.open();
    await running;
    expect(owner.stopReason()?.kind).toBe('noNewMessages');
  });

  it('WRK-8 a run whose stream another process claimed appends nothing more, not even its stop', async () => {
    const { store, pass } = storeOnOffset();
    const slow = gate();
    const work = waitingTool(slow.opened, { idempotent: true });
    const holder = await builderOf(
      answers([toolCallResponse([{ name: 'work', args: {}, id: 'w1' }])]),
      [work],
      (b) => b.runLease(60_000),
    )('s')
      .store(store)
      .streamId('s')
      .build();
    const held = holder.query('go');
    await waitFor(() => work.invocations() === 1, 'the tool to start');
    // The holder's process looks dead to the store: its lease lapses on the store's clock.
    pass(61_000);
    const taker = await builderOf(answers([textResponse('taken over')]), [work])('s')
      .store(store)
      .streamId('s')
      .build();
    await taker.run();
    const after = (await store.readStream('s')).length;
    slow.open();
    await expect(held).rejects.toBeInstanceOf(LeaseLostError);
    expect((await store.readStream('s')).length).toBe(after);
    expect(taker.stopReason()?.kind).toBe('noNewMessages');
  });

  it('HITL-12 WRK-4 a stop from another process only asks a live run to stop, and stops a run whose lease lapsed by the store clock at once', async () => {
    const { store, pass } = storeOnOffset();
    const never = new Promise<void>(() => undefined);
    const crashed = await builderOf(
      answers([toolCallResponse([{ name: 'work', args: {}, id: 'w1' }])]),
      [waitingTool(never, { idempotent: true })],
    )('s')
      .store(store)
      .streamId('s')
      .build();
    void crashed.query('go').catch(() => undefined);
    await waitFor(async () => (await types(store, 's')).includes('ToolCallStarted'), 'the tool');
    const other = await builderOf(answers([]))('s').store(store).streamId('s').build();
    await other.stop('halt', { by: 'ops' });
    expect((await types(store, 's')).slice(-1)).toEqual(['StopRequested']);
    pass(5 * 60_000 + 1);
    await other.stop('halt again', { by: 'ops' });
    expect((await types(store, 's')).slice(-2)).toEqual(['StopRequested', 'AgentStopped']);
    expect(other.stopReason()).toEqual({ kind: 'other', text: 'halt again' });
  });

  it('WRK-9 a run started in code with a registered name is continued by a worker after a decision given elsewhere', async () => {
    const store = createInMemoryEventStore();
    const charges: string[] = [];
    const charge = approvalRequired(
      tool({
        name: 'charge',
        description: 'charges once',
        parameters: z.object({}),
        execute: () => {
          charges.push('charged');
          return 'charged';
        },
      }),
    );
    const model = scriptedModel([
      toolCallResponse([{ name: 'charge', args: {}, id: 'c1' }]),
      textResponse('done'),
    ]);
    const inCode = await Agent.builder()
      .name('billing')
      .llm(model)
      .tools([charge])
      .store(store)
      .streamId('bill-1')
      .ids(counterIds('code'))
      .build();
    await inCode.query('charge the card');
    expect(inCode.stopReason()?.kind).toBe('feedbackRequired');
    const [started] = (await store.readStream('bill-1')).filter(
      (event) => event.type === 'RunStarted',
    );
    expect(started?.data).toMatchObject({ mode: 'query', agent: 'billing' });
    await recordDecision(store, 'bill-1', 'c1', ToolFeedback.approved(), { by: 'ana' });
    expect((await workOf(store, ['bill-1'])).get('bill-1')).toMatchObject({
      status: 'ready',
      agent: 'billing',
    });
    const worker = startWorker({
      store,
      agents: {
        billing: () =>
          Agent.builder()
            .llm(model)
            .tools([charge])
            .logger({ warn: () => undefined }),
      },
      id: 'w1',
    });
    await waitFor(
      async () =>
        (await store.readStream('bill-1')).at(-1)?.type === 'AgentStopped' &&
        (await workOf(store, ['bill-1'])).get('bill-1')?.status === 'idle',
      'the worker to finish the run',
    );
    await worker.stop();
    expect(charges).toEqual(['charged']);
    expect(worker.warnings).toEqual([]);
  });

  it('WRK-4 a run that did not run for longer than its lease (a paused process) loses it before its tools can act', () => {
    vi.useFakeTimers();
    let renewals = 0;
    const work = {
      renewLease: () => {
        renewals += 1;
        return new Promise<boolean>(() => undefined);
      },
    } as unknown as WorkIndex;
    const lost: LeaseLostError[] = [];
    const lease = keepRunLease(work, 's', 'w1', 3_000, (error) => lost.push(error));
    lease.claimed(4);
    vi.advanceTimersByTime(1_000);
    expect(renewals).toBe(1);
    // The process stops for twice the lease: when it runs again, the first timer to fire judges
    // the gap before any round trip.
    vi.setSystemTime(Date.now() + 6_000);
    vi.advanceTimersByTime(6_000);
    expect(lost).toHaveLength(1);
    expect(lost[0]).toBeInstanceOf(LeaseLostError);
    expect(lost[0]?.message).toMatch(/w1 lost the run's lease \(no renewal for \d+ ms\)/);
    expect(lost[0]?.fence).toBe(4);
    lease.stop();
  });
});
