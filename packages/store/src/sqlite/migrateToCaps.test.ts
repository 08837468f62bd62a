import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import type { NewStreamEvent } from '@agentlog/core';
import { sqliteSchemaVersion } from './agentlogSchema.js';
import { createSqliteEventStore } from './createSqliteEventStore.js';

// Schema version 5 adds the caps per agent name (SPEC WRK-10). A version 4 database is made here
// the way version 4 looked: the current schema without `agentlog_caps`, its version set to 4.

const dir = mkdtempSync(join(tmpdir(), 'agentlog-sqlite-caps-'));
let counter = 0;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const runStarted = (id: string): NewStreamEvent => ({
  type: 'RunStarted',
  data: { mode: 'run' },
  metadata: { eventId: id, at: '2026-12-01T10:00:00.000Z', schemaVersion: 4 },
});
const claimOf = (owner: string) => ({
  work: { status: 'running', agent: 'triage', owner, leaseMs: 60_000 } as const,
  claim: { owner, leaseMs: 60_000 },
});

/** A version 4 database holding one claimed run of `triage` (stream `live`) and one request. */
async function versionFourDatabase(): Promise<string> {
  const path = join(dir, `v4-${(counter += 1)}.db`);
  const store = createSqliteEventStore({ path });
  try {
    await store.appendToStream('live', [runStarted('l0')], {
      expectedRevision: 'noStream',
      ...claimOf('w1'),
    });
    await store.appendToStream('asked', [runStarted('a0')], {
      expectedRevision: 'noStream',
      work: { status: 'requested', agent: 'triage' },
    });
  } finally {
    store.close();
  }
  const raw = new Database(path);
  raw.exec(`
    DROP TABLE agentlog_caps;
    UPDATE agentlog_meta SET value = '4' WHERE key = 'schemaVersion';
  `);
  raw.pragma('wal_checkpoint(TRUNCATE)');
  raw.close();
  return path;
}

const schemaOf = (path: string) => {
  const raw = new Database(path, { readonly: true });
  try {
    return {
      version: raw
        .prepare("SELECT value FROM agentlog_meta WHERE key = 'schemaVersion'")
        .pluck()
        .get(),
      caps: raw
        .prepare("SELECT count(*) FROM sqlite_schema WHERE name = 'agentlog_caps'")
        .pluck()
        .get(),
    };
  } finally {
    raw.close();
  }
};

describe('SQLite schema version 5: caps per agent name (WRK-10)', () => {
  it('WRK-10 migrates a version 4 database in place: the caps table added, empty; every row kept; caps then judge claims', async () => {
    const path = await versionFourDatabase();
    expect(schemaOf(path)).toEqual({ version: '4', caps: 0 });
    const store = createSqliteEventStore({ path });
    try {
      expect(schemaOf(path)).toEqual({ version: String(sqliteSchemaVersion), caps: 1 });
      expect(await store.work.caps()).toEqual({});
      expect((await store.work.workOf(['live'])).get('live')).toMatchObject({
        status: 'running',
        fence: 0,
      });
      expect(await store.work.setCaps({ triage: 1 })).toEqual({});
      expect(await store.work.findWork({ limit: 10, agents: ['triage'] })).toEqual([]);
      await expect(
        store.appendToStream('asked', [runStarted('a1')], {
          expectedRevision: 0,
          ...claimOf('w2'),
        }),
      ).rejects.toMatchObject({ code: 'agentAtCap', agent: 'triage', cap: 1, running: 1 });
    } finally {
      store.close();
    }
    // Opening it again finds nothing left to migrate, and the cap is kept.
    const again = createSqliteEventStore({ path });
    try {
      expect(await again.work.caps()).toEqual({ triage: 1 });
    } finally {
      again.close();
    }
  });

  it('REV-2 WRK-10 read-only, a version 4 database is not migrated: it has no caps, findWork works, and setCaps is refused', async () => {
    const path = await versionFourDatabase();
    const bytes = readFileSync(path);
    const store = createSqliteEventStore({ path, readonly: true });
    try {
      expect(await store.work.caps()).toEqual({});
      expect(await store.work.findWork({ limit: 10, agents: ['triage'] })).toMatchObject([
        { streamId: 'asked', reason: 'requested' },
      ]);
      await expect(store.work.setCaps({ triage: 1 })).rejects.toMatchObject({
        code: 'storeFailed',
      });
    } finally {
      store.close();
    }
    expect(readFileSync(path).equals(bytes)).toBe(true);
    expect(schemaOf(path)).toEqual({ version: '4', caps: 0 });
  });
});
