import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import type { AppendOptions, NewStreamEvent, WorkEntry } from '@agentlog/core';
import { agentlogSchema, sqliteSchemaVersion } from './agentlogSchema.js';
import { createSqliteEventStore } from './createSqliteEventStore.js';
import { prepareSqliteWorkReads } from './prepareSqliteWorkReads.js';
import { prepareSqliteWorkWrites } from './prepareSqliteWorkWrites.js';

const dir = mkdtempSync(join(tmpdir(), 'agentlog-sqlite-fence-index-'));
let counter = 0;
const freshPath = (): string => join(dir, `f${(counter += 1)}.db`);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let ids = 0;
const event = (type = 'Numbered'): NewStreamEvent => ({
  type,
  data: {},
  metadata: { eventId: `e${(ids += 1)}`, at: '2025-01-02T03:04:05.678Z', schemaVersion: 1 },
});

/** The query plan of `sql` on an empty current schema: one line per step. */
const planOf = (prepare: (db: Database.Database) => string, ...args: unknown[]): string[] => {
  const db = new Database(':memory:');
  try {
    db.exec(agentlogSchema);
    db.prepare("INSERT INTO agentlog_meta (key, value) VALUES ('schemaVersion', ?)").run(
      String(sqliteSchemaVersion),
    );
    const rows = db.prepare(`EXPLAIN QUERY PLAN ${prepare(db)}`).all(...args);
    return (rows as { detail: string }[]).map((row) => row.detail);
  } finally {
    db.close();
  }
};

describe('SQLite work index: the fence and unserved work (WRK-6, WRK-8, WRK-9)', () => {
  it('WRK-9 unservedWork reads only the partial indexes of waiting and running rows, never the whole table', () => {
    const plan = planOf((db) => prepareSqliteWorkReads(db).unserved.source, {
      agents: '["a"]',
      now: 0,
      limit: 10,
    });
    const reads = plan.filter((detail) => /\bagentlog_work\b/.test(detail));
    expect(reads).toEqual([
      expect.stringMatching(/USING INDEX agentlog_work_waiting/),
      expect.stringMatching(/USING INDEX agentlog_work_leases \(lease_until<\?\)/),
    ]);
  });

  it("WRK-8 the one read of an append finds the stream's last revision and its work row by key", () => {
    const plan = planOf((db) => prepareSqliteWorkWrites(db).head.source, 's');
    const reads = plan.filter((detail) => /\bagentlog_(work|events)\b|\bwork\b/.test(detail));
    expect(reads).toHaveLength(2);
    for (const detail of reads) expect(detail).toMatch(/^SEARCH .* \(stream_id=\?\)/);
  });

  it('WRK-6 WRK-8 a fenced append whose entry the row already says leaves the row as it is; a claim writes its token; a rewrite without a token keeps it', async () => {
    const path = freshPath();
    let now = 1_000;
    const store = createSqliteEventStore({ path, clock: () => new Date(now) });
    const rowOf = () => {
      const raw = new Database(path, { readonly: true });
      try {
        return raw
          .prepare("SELECT status, owner, fence, updated FROM agentlog_work WHERE stream_id = 's'")
          .get();
      } finally {
        raw.close();
      }
    };
    const append = (options: Omit<AppendOptions, 'expectedRevision'>, type?: string) =>
      store.appendToStream('s', [event(type)], { expectedRevision: 'any', ...options });
    const running = { status: 'running', agent: 'a', owner: 'w1' } as const;
    try {
      await append({ work: { status: 'requested', agent: 'a' } });
      now = 2_000;
      await append({ work: running, claim: { owner: 'w1', leaseMs: 60_000 } }, 'RunStarted');
      expect(rowOf()).toEqual({ status: 'running', owner: 'w1', fence: 1, updated: 2_000 });
      now = 3_000;
      await append({ work: running, fence: 1 });
      expect(rowOf()).toEqual({ status: 'running', owner: 'w1', fence: 1, updated: 2_000 });
      // The holder claims again (its run was cut off): the same entry, a new token.
      now = 4_000;
      await append({ work: running, claim: { owner: 'w1', leaseMs: 60_000 } }, 'RunStarted');
      expect(rowOf()).toEqual({ status: 'running', owner: 'w1', fence: 3, updated: 4_000 });
      now = 5_000;
      await append({ work: { status: 'idle' }, fence: 3 });
      expect(rowOf()).toEqual({ status: 'idle', owner: null, fence: 3, updated: 5_000 });
      // The lease renews on the store's clock whatever the token, unless one is given.
      await append({
        work: { ...running, leaseMs: 60_000 },
        claim: { owner: 'w1', leaseMs: 60_000 },
      });
      expect(await store.work.renewLease('s', 'w1', 1_000)).toBe(true);
      expect(await store.work.renewLease('s', 'w1', 1_000, 3)).toBe(false);
      expect(await store.work.renewLease('s', 'w1', 1_000, 5)).toBe(true);
    } finally {
      store.close();
    }
  });

  it('WRK-9 unservedWork lists what findWork would, by the store clock: of agents not given or of none, lapsed leases included, oldest first, at most limit', async () => {
    let now = 10_000;
    const store = createSqliteEventStore({ path: freshPath(), clock: () => new Date(now) });
    const put = async (streamId: string, work: WorkEntry) => {
      await store.appendToStream(streamId, [event()], { expectedRevision: 'any', work });
      now += 10;
    };
    try {
      await put('lapsed', { status: 'running', agent: 'y', owner: 'w', leaseMs: 100 });
      await put('orphan', { status: 'requested' });
      await put('ready-x', { status: 'ready', agent: 'x' });
      await put('served', { status: 'requested', agent: 'z' });
      await put('live', { status: 'running', agent: 'y', owner: 'w', leaseMs: 60_000 });
      await put('waits', { status: 'waiting', agent: 'x' });
      await put('done', { status: 'idle', agent: 'x' });
      now = 10_500;
      const unserved = await store.work.unservedWork({ limit: 10, agents: ['z'] });
      expect(unserved.map((item) => item.streamId)).toEqual(['orphan', 'ready-x', 'lapsed']);
      expect(unserved[2]).toMatchObject({ reason: 'leaseLapsed', agent: 'y', owner: 'w' });
      expect(unserved[0]).not.toHaveProperty('agent');
      // What findWork lists for the same names, in the same order and shape.
      const found = await store.work.findWork({ limit: 10, agents: ['x', 'y'] });
      expect(found).toEqual(unserved.slice(1));
      expect(await store.work.unservedWork({ limit: 1, agents: ['z'] })).toEqual(
        unserved.slice(0, 1),
      );
      expect(await store.work.unservedWork({ limit: 0, agents: [] })).toEqual([]);
      await expect(store.work.unservedWork({ limit: -1, agents: [] })).rejects.toThrow(/limit/);
    } finally {
      store.close();
    }
  });
});
