import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import type { NewStreamEvent } from '@agentlog/core';
import { agentlogSchema, sqliteSchemaVersion } from './agentlogSchema.js';
import { createSqliteEventStore } from './createSqliteEventStore.js';
import { prepareSqliteWorkReads } from './prepareSqliteWorkReads.js';

const dir = mkdtempSync(join(tmpdir(), 'agentlog-sqlite-work-'));
let folderCounter = 0;
const freshFolder = (): string => {
  folderCounter += 1;
  const folder = join(dir, `f${folderCounter}`);
  return folder;
};

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const event = (id: string): NewStreamEvent => ({
  type: 'Numbered',
  data: { id },
  metadata: { eventId: id, at: '2025-01-02T03:04:05.678Z', schemaVersion: 1 },
});

/** A database as agentlog with schema version 1 left it: events, no work index. */
async function versionOneDatabase(folder: string): Promise<string> {
  const path = join(folder, 'v1.db');
  const store = createSqliteEventStore({ path });
  await store.appendToStream('a', [event('a0'), event('a1')], { expectedRevision: 'noStream' });
  store.close();
  const raw = new Database(path);
  raw.exec(`
    DROP TABLE agentlog_work;
    DROP TABLE agentlog_workers;
    DROP TABLE agentlog_caps;
    UPDATE agentlog_meta SET value = '1' WHERE key = 'schemaVersion';
  `);
  raw.pragma('wal_checkpoint(TRUNCATE)');
  raw.close();
  return path;
}

const tables = (path: string): { names: string[]; version: string } => {
  const raw = new Database(path, { readonly: true });
  try {
    return {
      names: raw
        .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
        .pluck()
        .all() as string[],
      version: raw
        .prepare("SELECT value FROM agentlog_meta WHERE key = 'schemaVersion'")
        .pluck()
        .get() as string,
    };
  } finally {
    raw.close();
  }
};

describe('SQLite work index: schema version 2', () => {
  it('migrates a database of schema version 1 in place, keeping its events', async () => {
    const path = await versionOneDatabase(freshFolder());
    expect(tables(path)).toEqual({ names: ['agentlog_events', 'agentlog_meta'], version: '1' });
    const store = createSqliteEventStore({ path });
    try {
      expect(tables(path)).toEqual({
        names: [
          'agentlog_caps',
          'agentlog_events',
          'agentlog_meta',
          'agentlog_work',
          'agentlog_workers',
        ],
        version: String(sqliteSchemaVersion),
      });
      expect((await store.readStream('a')).map((stored) => stored.metadata.eventId)).toEqual([
        'a0',
        'a1',
      ]);
      await store.appendToStream('a', [event('a2')], {
        expectedRevision: 1,
        work: { status: 'ready', agent: 'triage' },
      });
      expect(await store.work.findWork({ limit: 5, agents: ['triage'] })).toMatchObject([
        { streamId: 'a', reason: 'ready', agent: 'triage' },
      ]);
    } finally {
      store.close();
    }
    // Opening it again finds nothing left to migrate.
    createSqliteEventStore({ path }).close();
    expect(tables(path).version).toBe(String(sqliteSchemaVersion));
  });

  it('REV-2 SQLite: read-only, a database of schema version 1 is not migrated, reads its events and shows no work', async () => {
    const folder = freshFolder();
    const path = await versionOneDatabase(folder);
    const bytes = readFileSync(path);
    const mtime = statSync(path).mtimeMs;
    const store = createSqliteEventStore({ path, readonly: true });
    try {
      expect((await store.readStream('a')).map((stored) => stored.metadata.eventId)).toEqual([
        'a0',
        'a1',
      ]);
      expect(await store.work.findWork({ limit: 5, agents: ['triage'] })).toEqual([]);
      expect((await store.work.workOf()).size).toBe(0);
      expect(await store.work.listWorkers()).toEqual([]);
      await expect(
        store.work.heartbeat({ id: 'w', host: 'h', pid: 1, runs: [] }),
      ).rejects.toMatchObject({
        code: 'storeFailed',
        message: expect.stringContaining('opened read-only') as unknown,
      });
    } finally {
      store.close();
    }
    expect(readFileSync(path).equals(bytes)).toBe(true);
    expect(statSync(path).mtimeMs).toBe(mtime);
    expect(readdirSync(folder)).toEqual(['v1.db']);
    expect(tables(path).version).toBe('1');
  });

  it('REV-2 SQLite: read-only, the work index of a current database reads as written', async () => {
    const path = join(freshFolder(), 'current.db');
    const writer = createSqliteEventStore({ path });
    await writer.appendToStream('s', [event('s0')], {
      expectedRevision: 'noStream',
      work: { status: 'requested', agent: 'triage' },
    });
    await writer.work.heartbeat({ id: 'w1', host: 'h', pid: 7, runs: ['s'] });
    writer.close();
    const reader = createSqliteEventStore({ path, readonly: true });
    try {
      expect(await reader.work.workOf(['s'])).toEqual(
        new Map([['s', { status: 'requested', agent: 'triage' }]]),
      );
      expect((await reader.work.listWorkers()).map((worker) => worker.id)).toEqual(['w1']);
    } finally {
      reader.close();
    }
  });

  it('waitForWork of one store ends when another connection appends a ready stream (data_version)', async () => {
    const path = join(freshFolder(), 'two.db');
    const worker = createSqliteEventStore({ path });
    const approver = createSqliteEventStore({ path });
    try {
      const start = performance.now();
      const waiting = worker.work.waitForWork(60_000);
      // Let the wait start polling before the other connection commits.
      await new Promise((resolve) => setTimeout(resolve, 20));
      await approver.appendToStream('approved', [event('a0')], {
        expectedRevision: 'noStream',
        work: { status: 'ready', agent: 'triage' },
      });
      await waiting;
      // Far below the minute of the wait: the poll runs every 75 ms.
      expect(performance.now() - start).toBeLessThan(30_000);
    } finally {
      worker.close();
      approver.close();
    }
  });

  it('WRK-6: findWork reads only the partial indexes of waiting and running rows, never the whole table', () => {
    const db = new Database(':memory:');
    try {
      db.exec(agentlogSchema);
      const find = prepareSqliteWorkReads(db).find;
      const plan = db
        .prepare(`EXPLAIN QUERY PLAN ${find.source}`)
        .all({ agents: '["a"]', now: 0, limit: 10 }) as { detail: string }[];
      const reads = plan
        .map((row) => row.detail)
        .filter((detail) => /\bagentlog_work\b/.test(detail));
      expect(reads.length).toBeGreaterThanOrEqual(3);
      for (const detail of reads) {
        expect(detail).toMatch(/USING INDEX agentlog_work_(waiting|leases)/);
      }
    } finally {
      db.close();
    }
  });
});

describe('SQLite work index: the upsert of an append', () => {
  const rowOf = (path: string) => {
    const raw = new Database(path, { readonly: true });
    try {
      return raw
        .prepare(
          "SELECT status, agent, owner, lease_until, since, updated FROM agentlog_work WHERE stream_id = 's'",
        )
        .get() as Record<string, unknown>;
    } finally {
      raw.close();
    }
  };

  it('WRK-6 an append whose entry the row already says leaves the row as it is; any change, a renewed lease included, writes it', async () => {
    const folder = freshFolder();
    const path = join(folder, 'work.db');
    let now = 1_000;
    const store = createSqliteEventStore({ path, clock: () => new Date(now) });
    const appendWith = async (work: Parameters<typeof store.appendToStream>[2]['work']) => {
      const id = `e${now}`;
      await store.appendToStream('s', [event(id)], {
        expectedRevision: 'any',
        ...(work === undefined ? {} : { work }),
      });
    };
    try {
      await appendWith({ status: 'running', agent: 'a' });
      now = 2_000;
      await appendWith({ status: 'running' });
      expect(rowOf(path)).toEqual({
        status: 'running',
        agent: 'a',
        owner: null,
        lease_until: null,
        since: 1_000,
        updated: 1_000,
      });
      now = 3_000;
      await appendWith({ status: 'running', owner: 'w1', leaseMs: 500 });
      expect(rowOf(path)).toMatchObject({
        owner: 'w1',
        lease_until: 3_500,
        since: 1_000,
        updated: 3_000,
      });
      now = 4_000;
      await appendWith({ status: 'running', owner: 'w1', leaseMs: 500 });
      expect(rowOf(path)).toMatchObject({ lease_until: 4_500, updated: 4_000 });
      now = 5_000;
      await appendWith({ status: 'idle', agent: 'b' });
      expect(rowOf(path)).toEqual({
        status: 'idle',
        agent: 'b',
        owner: null,
        lease_until: null,
        since: 5_000,
        updated: 5_000,
      });
    } finally {
      store.close();
    }
  });
});
