import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import type { NewStreamEvent } from '@agentlog/core';
import { sqliteSchemaVersion } from './agentlogSchema.js';
import { createSqliteEventStore } from './createSqliteEventStore.js';

// fixtures/schemaVersion3.db was made by agentlog at schema version 3 (commit cd9bfeb), with the
// store's clock set to 2026-12-01T10:00:00Z and one second more before each append:
// stream `asked` requested (agent triage), `approved` ready (deployer), `running` running (triage,
// owner w1, a 5-minute lease from 10:00:02, two events) and `done` idle (triage); worker w1's
// heartbeat, holding `running`.
const fixture = join(import.meta.dirname, 'fixtures', 'schemaVersion3.db');
const dir = mkdtempSync(join(tmpdir(), 'agentlog-sqlite-fences-'));
let counter = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A copy of the fixture in a folder of its own, so the test sees every file that appears. */
const copied = (): { folder: string; path: string } => {
  const folder = join(dir, `case-${(counter += 1)}`);
  mkdirSync(folder);
  const path = join(folder, 'agentlog.db');
  copyFileSync(fixture, path);
  return { folder, path };
};

const inspect = (path: string) => {
  const raw = new Database(path, { readonly: true });
  try {
    const columns = (table: string) =>
      (raw.prepare(`SELECT name FROM pragma_table_info('${table}')`).pluck().all() as string[])
        .filter((name) => name === 'fence' || name === 'agents')
        .join();
    return {
      version: raw
        .prepare("SELECT value FROM agentlog_meta WHERE key = 'schemaVersion'")
        .pluck()
        .get(),
      work: columns('agentlog_work'),
      workers: columns('agentlog_workers'),
    };
  } finally {
    raw.close();
  }
};

const started = Date.parse('2026-12-01T10:00:02.000Z');
const runStarted = (id: string): NewStreamEvent => ({
  type: 'RunStarted',
  data: { mode: 'run' },
  metadata: { eventId: id, at: '2026-12-01T10:00:00.000Z', schemaVersion: 4 },
});
const running = (owner: string) =>
  ({ status: 'running', agent: 'triage', owner, leaseMs: 60_000 }) as const;

describe('SQLite schema version 4: fencing tokens and worker agent names (WRK-8, WRK-9)', () => {
  it('WRK-8 WRK-9 migrates a version 3 database made by agentlog in place: the columns added, every row kept, no stream fenced and no worker with agent names; claims then work', async () => {
    const { path } = copied();
    expect(inspect(path)).toEqual({ version: '3', work: '', workers: '' });
    let now = started + 10_000;
    const store = createSqliteEventStore({ path, clock: () => new Date(now) });
    try {
      expect(inspect(path)).toEqual({
        version: String(sqliteSchemaVersion),
        work: 'fence',
        workers: 'agents',
      });
      const work = await store.work.workOf();
      expect([...work.keys()].sort()).toEqual(['approved', 'asked', 'done', 'running']);
      expect([...work.values()].filter((entry) => 'fence' in entry)).toEqual([]);
      expect(work.get('running')).toEqual({
        status: 'running',
        agent: 'triage',
        owner: 'w1',
        leaseUntil: '2026-12-01T10:05:02.000Z',
      });
      expect(await store.work.listWorkers()).toEqual([
        expect.not.objectContaining({ agents: expect.anything() as unknown }),
      ]);
      expect((await store.readStream('running')).map((e) => e.type)).toEqual([
        'RunRequested',
        'RunStarted',
      ]);
      expect(
        (await store.work.unservedWork({ limit: 10, agents: ['triage'] })).map((i) => i.streamId),
      ).toEqual(['approved']);

      // w1's run, started before the upgrade, holds no token: a fenced append is refused, and
      // another owner's claim meets its live lease.
      const fenced = { expectedRevision: 1, work: running('w1'), fence: 1 };
      await expect(
        store.appendToStream('running', [runStarted('x1')], fenced),
      ).rejects.toMatchObject({ code: 'leaseLost' });
      const claim = {
        expectedRevision: 1,
        work: running('w2'),
        claim: { owner: 'w2', leaseMs: 60_000 },
      };
      await expect(
        store.appendToStream('running', [runStarted('x2')], claim),
      ).rejects.toMatchObject({ code: 'runOwned', owner: 'w1' });
      now = started + 300_001;
      await store.appendToStream('running', [runStarted('x3')], claim);
      expect((await store.work.workOf(['running'])).get('running')).toMatchObject({
        owner: 'w2',
        fence: 2,
      });
      await store.work.heartbeat({
        id: 'w2',
        host: 'h',
        pid: 2,
        runs: ['running'],
        agents: ['triage'],
      });
      expect((await store.work.listWorkers()).find((w) => w.id === 'w2')?.agents).toEqual([
        'triage',
      ]);
    } finally {
      store.close();
    }
    // Opening it again finds nothing left to migrate.
    createSqliteEventStore({ path }).close();
    expect(inspect(path).version).toBe(String(sqliteSchemaVersion));
  });

  it('REV-2 WRK-8 read-only, a version 3 database is not migrated: its work and workers read, without fences or agent names', async () => {
    const { folder, path } = copied();
    const bytes = readFileSync(path);
    const store = createSqliteEventStore({
      path,
      readonly: true,
      clock: () => new Date(started + 10_000),
    });
    try {
      const work = await store.work.workOf();
      expect(work.size).toBe(4);
      expect(work.get('running')).toMatchObject({ owner: 'w1' });
      expect(work.get('running')).not.toHaveProperty('fence');
      expect(await store.work.workOf(['asked'])).toEqual(
        new Map([['asked', { status: 'requested', agent: 'triage' }]]),
      );
      const [worker] = await store.work.listWorkers();
      expect(worker).toMatchObject({ id: 'w1', runs: ['running'] });
      expect(worker).not.toHaveProperty('agents');
      expect(await store.work.findWork({ limit: 10, agents: ['triage'] })).toMatchObject([
        { streamId: 'asked', reason: 'requested' },
      ]);
      expect(
        (await store.work.unservedWork({ limit: 10, agents: [] })).map((i) => i.streamId),
      ).toEqual(['asked', 'approved']);
      await expect(store.work.renewLease('running', 'w1', 1000, 1)).rejects.toMatchObject({
        code: 'storeFailed',
      });
    } finally {
      store.close();
    }
    expect(readFileSync(path).equals(bytes)).toBe(true);
    expect(readdirSync(folder)).toEqual(['agentlog.db']);
    expect(inspect(path)).toEqual({ version: '3', work: '', workers: '' });
  });
});
