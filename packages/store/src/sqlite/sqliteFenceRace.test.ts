import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppendOptions, NewStreamEvent } from '@agentlog/core';
import { createSqliteEventStore, type SqliteEventStore } from './createSqliteEventStore.js';
import type { FenceOutcome, FenceRequest } from './fenceRace.test.worker.js';

// The fence across OS processes (SPEC WRK-4, WRK-8): the conformance suite runs in one process;
// here two processes on one SQLite file claim and append, as two workers of one machine do.

const dir = mkdtempSync(join(tmpdir(), 'agentlog-sqlite-fence-'));
const path = join(dir, 'agentlog.db');
const workerFile = join(import.meta.dirname, 'fenceRace.test.worker.ts');
const names = ['p1', 'p2'] as const;

/** A child process on the file, and a way to run one command in it. */
interface Child {
  readonly process: ChildProcess;
  run(command: FenceRequest): Promise<FenceOutcome>;
}

let commandIds = 0;
const spawn = async (name: string): Promise<Child> => {
  const child = fork(workerFile, [path, name], {
    execArgv: ['--conditions=source', '--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  await new Promise<void>((resolve, reject) => {
    child.once('message', () => resolve());
    child.once('exit', (code) => reject(new Error(`${name} exited with ${String(code)}`)));
  });
  const run = (command: FenceRequest): Promise<FenceOutcome> => {
    const id = (commandIds += 1);
    return new Promise((resolve) => {
      const answer = (outcome: FenceOutcome): void => {
        if (outcome.id !== id) return;
        child.off('message', answer);
        resolve(outcome);
      };
      child.on('message', answer);
      child.send({ ...command, id });
    });
  };
  return { process: child, run };
};

let children: Child[] = [];
let store: SqliteEventStore;
beforeAll(async () => {
  store = createSqliteEventStore({ path });
  children = await Promise.all(names.map(spawn));
}, 60_000);
afterAll(() => {
  for (const child of children) child.process.send('close');
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

let eventIds = 0;
const event = (type: string): NewStreamEvent => ({
  type,
  data: { mode: 'run' },
  metadata: { eventId: `e${(eventIds += 1)}`, at: '2025-01-02T03:04:05.678Z', schemaVersion: 4 },
});
const running = (owner: string, leaseMs: number) =>
  ({ status: 'running', agent: 'deployer', owner, leaseMs }) as const;
/** The run start of `owner`'s claim, at `expectedRevision`. */
const claim = (streamId: string, owner: string, expectedRevision: number, leaseMs = 60_000) => ({
  op: 'append' as const,
  streamId,
  events: [event('RunStarted')],
  options: {
    expectedRevision,
    work: running(owner, leaseMs),
    claim: { owner, leaseMs },
  } satisfies AppendOptions,
});
/** A stream whose run was requested: one event, revision 0. */
const requested = async (streamId: string): Promise<void> => {
  await store.appendToStream(streamId, [event('RunRequested')], {
    expectedRevision: 'noStream',
    work: { status: 'requested', agent: 'deployer' },
  });
};
const [p1, p2] = [() => children[0] as Child, () => children[1] as Child];

describe('SQLite: the fence across processes (WRK-4, WRK-8)', () => {
  it('WRK-4 two processes claiming the same stream at the same moment: exactly one claim wins, the other gets runOwned and appends nothing, 10 streams in a row', async () => {
    for (let round = 1; round <= 10; round += 1) {
      const streamId = `race-${round}`;
      await requested(streamId);
      // A moment far enough ahead for both processes to have the command, on a loaded machine too.
      const at = Date.now() + 300;
      const outcomes = await Promise.all(
        children.map((child, n) => child.run({ ...claim(streamId, names[n] as string, 0), at })),
      );
      const winners = outcomes.filter((outcome) => outcome.ok);
      const losers = outcomes.filter((outcome) => !outcome.ok);
      expect(winners).toHaveLength(1);
      expect(losers).toMatchObject([{ code: 'runOwned' }]);
      expect(losers[0]?.message).toContain(winners[0]?.name);
      expect((await store.readStream(streamId)).map((e) => e.type)).toEqual([
        'RunRequested',
        'RunStarted',
      ]);
      expect((await store.work.workOf([streamId])).get(streamId)).toMatchObject({
        status: 'running',
        owner: winners[0]?.name,
        fence: 1,
      });
    }
  }, 60_000);

  it('WRK-8 a holder whose token went stale (another process claimed after its lease lapsed) gets leaseLost, appends nothing, and cannot renew', async () => {
    const streamId = 'stale';
    await requested(streamId);
    expect(await p1().run(claim(streamId, 'p1', 0, 300))).toMatchObject({ ok: true, value: 1 });
    // p1 is paused past its lease (by the store's clock, the local one); p2 takes the run.
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(await p2().run(claim(streamId, 'p2', 1))).toMatchObject({ ok: true, value: 2 });

    // p1 wakes up: at its own stale revision or at the stream's, its token is refused.
    for (const expectedRevision of [1, 2]) {
      const late = await p1().run({
        op: 'append',
        streamId,
        events: [event('ToolCallStarted')],
        options: { expectedRevision, work: running('p1', 60_000), fence: 1 },
      });
      expect(late).toMatchObject({ ok: false, code: 'leaseLost' });
      expect(late.message).toContain('token 2');
    }
    const renew = { op: 'renew', streamId, leaseMs: 60_000 } as const;
    expect(await p1().run({ ...renew, owner: 'p1', fence: 1 })).toMatchObject({ value: false });
    expect(await p2().run({ ...renew, owner: 'p2', fence: 1 })).toMatchObject({ value: false });
    expect(await p2().run({ ...renew, owner: 'p2', fence: 2 })).toMatchObject({ value: true });
    expect(
      await p2().run({
        op: 'append',
        streamId,
        events: [event('ToolCallStarted')],
        options: { expectedRevision: 2, work: running('p2', 60_000), fence: 2 },
      }),
    ).toMatchObject({ ok: true, value: 3 });
    expect((await store.readStream(streamId)).map((e) => e.type)).toEqual([
      'RunRequested',
      'RunStarted',
      'RunStarted',
      'ToolCallStarted',
    ]);
    expect((await store.work.workOf([streamId])).get(streamId)).toMatchObject({
      owner: 'p2',
      fence: 2,
    });
  }, 60_000);
});
