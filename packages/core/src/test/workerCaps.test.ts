import { describe, expect, it } from 'vitest';
import { requestRun } from '../commands/requestRun.js';
import { isAgentlogError } from '../errors/agentlogError.js';
import type { ChatCompletion } from '../ports/chatCompletion.js';
import type { EventStore } from '../ports/eventStore.js';
import type { WorkIndex } from '../ports/workIndex.js';
import { textResponse } from '../testing/scriptedModel.js';
import { createWorker, type Worker } from '../worker/createWorker.js';
import type { WorkerActivity } from '../worker/workerActivity.js';
import { builderOf, gate, waitFor, workStore } from './workerKit.js';

// SPEC WRK-10: a cap per agent name lives in the store and is judged at the claim, so it holds
// across workers: two workers each free to run two runs of an agent capped at 1 run one at a time.

/**
 * A model whose every answer waits until the test lets it go, oldest first; `asked()` counts the
 * requests, `waiting()` those not answered yet.
 */
function heldModel(): ChatCompletion & {
  readonly asked: () => number;
  readonly waiting: () => number;
  readonly answerOne: () => void;
} {
  const pending: (() => void)[] = [];
  let asked = 0;
  return {
    asked: () => asked,
    waiting: () => pending.length,
    answerOne: () => pending.shift()?.(),
    complete: (_request, options) =>
      new Promise((resolve, reject) => {
        asked += 1;
        pending.push(() => resolve(textResponse('done')));
        options.signal?.addEventListener('abort', () => reject(options.signal?.reason as Error), {
          once: true,
        });
      }),
  };
}

/** A worker on `store` whose warnings and activity the test reads; `stop()` waits until it stopped. */
function watchedWorker(options: Omit<Parameters<typeof createWorker>[0], 'signal' | 'logger'>): {
  readonly worker: Worker;
  readonly warnings: string[];
  readonly facts: WorkerActivity[];
} {
  const warnings: string[] = [];
  const facts: WorkerActivity[] = [];
  const worker = createWorker({
    pollMs: 20,
    logger: { warn: (message) => warnings.push(message) },
    ...options,
  });
  worker.activity$.subscribe((fact) => facts.push(fact));
  return { worker, warnings, facts };
}

/** The codes of the agentlog errors `store`'s appends were refused with, as they happen. */
function refusals(store: EventStore): { readonly store: EventStore; readonly codes: string[] } {
  const codes: string[] = [];
  return {
    codes,
    store: {
      ...store,
      appendToStream: (streamId, events, options) =>
        store.appendToStream(streamId, events, options).catch((error: unknown) => {
          if (isAgentlogError(error)) codes.push(error.code);
          throw error;
        }),
    },
  };
}

describe('caps per agent name across workers (SPEC WRK-10)', () => {
  it('WRK-10 a cap per agent holds across workers: two workers, each free to hold two runs, run the runs of an agent capped at 1 one at a time', async () => {
    const { store, work, polls } = workStore();
    const model = heldModel();
    const agents = { triage: builderOf(model) };
    for (const streamId of ['t1', 't2', 't3']) {
      await requestRun(store, { streamId, agent: 'triage', input: `sort ${streamId}` });
    }
    const streams = ['t1', 't2', 't3'];
    /** The requested streams whose index entry says a run holds them now. */
    const running = async () =>
      [...(await work.workOf(streams)).values()].filter((entry) => entry.status === 'running')
        .length;
    const one = watchedWorker({ store, agents, concurrency: 2, id: 'w1', caps: { triage: 1 } });
    const two = watchedWorker({ store, agents, concurrency: 2, id: 'w2', caps: { triage: 1 } });
    // Also counted at each claim, whichever worker made it.
    let most = 0;
    for (const { worker } of [one, two]) {
      worker.activity$.subscribe((fact) => {
        if (fact.kind === 'claimed') void running().then((n) => (most = Math.max(most, n)));
      });
    }
    try {
      for (let finished = 0; finished < 3; finished += 1) {
        await waitFor(() => model.waiting() === 1, `run ${finished + 1} to ask its model`);
        // Both workers look for work again, more than once, while the run holds the cap's place.
        const seen = polls();
        await waitFor(() => polls() >= seen + 6, 'six more polls of the two workers');
        expect(model.asked()).toBe(finished + 1);
        expect(await running()).toBe(1);
        model.answerOne();
      }
      await waitFor(
        async () =>
          [...(await work.workOf(streams)).values()].every((entry) => entry.status === 'idle'),
        'the last run to finish',
      );
    } finally {
      await Promise.all([one.worker.stop(), two.worker.stop()]);
    }
    expect(most).toBe(1);
    expect(await work.caps()).toEqual({ triage: 1 });
    const claims = [...one.facts, ...two.facts].filter((fact) => fact.kind === 'claimed');
    expect(claims.map((fact) => fact.streamId).sort()).toEqual(['t1', 't2', 't3']);
    expect([...one.warnings, ...two.warnings]).toEqual([]);
  }, 60_000);

  it('WRK-10 a claim refused for the cap is no failure: nothing appended, nothing logged, and the worker takes the run once a place is free', async () => {
    const { store: base, work } = workStore();
    const { store, codes } = refusals(base);
    const model = heldModel();
    await work.setCaps({ triage: 1 });
    await requestRun(store, { streamId: 'queued', agent: 'triage', input: 'sort it' });
    // The worker's first look that lists the request is held until a run started in code has
    // taken the cap's only place: its claim then meets the cap, as after a lost race.
    const listed = gate();
    const taken = gate();
    let held = false;
    const racing: WorkIndex = {
      ...work,
      findWork: async (options) => {
        const items = await work.findWork(options);
        if (!held && items.some((item) => item.streamId === 'queued')) {
          held = true;
          listed.open();
          await taken.opened;
        }
        return items;
      },
    };
    const { worker, warnings, facts } = watchedWorker({
      store: { ...store, work: racing },
      agents: { triage: builderOf(model) },
      id: 'w1',
    });
    try {
      await listed.opened;
      const inCode = await builderOf(model)('first')
        .name('triage')
        .store(store)
        .streamId('first')
        .build();
      const first = inCode.query('sort the first one');
      await waitFor(() => model.waiting() === 1, 'the run in code to ask its model');
      taken.open();
      await waitFor(() => codes.includes('agentAtCap'), 'the worker claim to meet the cap');
      expect((await store.readStream('queued')).map((event) => event.type)).toEqual([
        'RunRequested',
      ]);
      model.answerOne();
      await first;
      await waitFor(() => model.waiting() === 1, 'the worker to take the run once a place is free');
      model.answerOne();
      await waitFor(
        () => facts.some((fact) => fact.kind === 'finished' && fact.streamId === 'queued'),
        'the worker run to finish',
      );
    } finally {
      await worker.stop();
    }
    expect(codes).toEqual(['agentAtCap']);
    expect(facts.map((fact) => fact.kind)).toEqual(['claimed', 'finished']);
    expect(warnings).toEqual([]);
    const started = (await store.readStream('queued')).filter((e) => e.type === 'RunStarted');
    expect(started).toHaveLength(1);
  }, 60_000);

  it('WRK-10 the caps option writes the caps into the store as a worker starts: the last worker to start sets them, and logs once when it changed another value', async () => {
    const { store, work } = workStore();
    await work.setCaps({ kept: 4 });
    const agents = { triage: builderOf(heldModel()) };
    const first = watchedWorker({ store, agents, id: 'w1', caps: { triage: 2 } });
    await waitFor(async () => (await work.caps())['triage'] === 2, 'the first worker caps');
    const second = watchedWorker({ store, agents, id: 'w2', caps: { triage: 1, gone: null } });
    await waitFor(async () => (await work.caps())['triage'] === 1, 'the second worker caps');
    const third = watchedWorker({ store, agents, id: 'w3', caps: { triage: null } });
    await waitFor(async () => !('triage' in (await work.caps())), 'the third worker caps');
    await Promise.all([first, second, third].map(({ worker }) => worker.stop()));
    expect(await work.caps()).toEqual({ kept: 4 });
    expect(first.warnings).toEqual([]);
    expect(second.warnings).toEqual([
      "this worker's caps option changed the cap of agent triage from 2 runs to 1 run at once for every worker on the store (the last worker to start sets it)",
    ]);
    expect(second.facts).toContainEqual({
      kind: 'capChanged',
      agent: 'triage',
      cap: 1,
      previous: 2,
    });
    expect(third.warnings).toEqual([
      "this worker's caps option removed the cap of agent triage (it was 1 run at once) for every worker on the store",
    ]);
  }, 30_000);

  it('WRK-10 a worker refuses caps that are no whole numbers >= 0 of agent names, naming them', () => {
    const { store } = workStore();
    const agents = { triage: builderOf(heldModel()) };
    for (const [caps, named] of [
      [{ triage: 1.5 }, 'the cap of agent triage'],
      [{ triage: -1 }, 'the cap of agent triage'],
      [{ 'no spaces': 1 }, '"no spaces"'],
    ] as const) {
      expect(() => createWorker({ store, agents, caps })).toThrow(
        expect.objectContaining({
          code: 'invalidConfiguration',
          message: expect.stringContaining(named) as unknown,
        }),
      );
    }
  });

  it('WRK-10 a run started in code under an agent name at its cap is refused with agentAtCap, and nothing is written', async () => {
    const { store, work } = workStore();
    await work.setCaps({ triage: 0 });
    const model = heldModel();
    const agent = await builderOf(model)('mine')
      .name('triage')
      .store(store)
      .streamId('mine')
      .build();
    await expect(agent.query('sort it')).rejects.toMatchObject({
      code: 'agentAtCap',
      agent: 'triage',
      cap: 0,
      running: 0,
      streamId: 'mine',
    });
    expect(await store.readStream('mine')).toEqual([]);
    expect(model.asked()).toBe(0);
    expect(agent.state().status).not.toBe('running');
    await work.setCaps({ triage: null });
    const run = agent.query('sort it');
    await waitFor(() => model.waiting() === 1, 'the run to ask its model');
    model.answerOne();
    await run;
    expect((await store.readStream('mine')).at(-1)?.type).toBe('AgentStopped');
  }, 30_000);
});
