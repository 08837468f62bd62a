import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import type { NewStreamEvent } from '@agentlog/core';
import { agentlogApplicationId, sqliteSchemaVersion } from './agentlogSchema.js';
import { createSqliteEventStore } from './createSqliteEventStore.js';

const dir = mkdtempSync(join(tmpdir(), 'agentlog-sqlite-waiting-'));
let counter = 0;
const freshPath = (): string => join(dir, `v2-${(counter += 1)}.db`);

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

// The schema as agentlog with schema version 2 wrote it (copied from agentlogSchema.ts before
// version 3 added `waiting`): its work table allows requested, ready, running and idle only.
const versionTwoSchema = `
  CREATE TABLE agentlog_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
  CREATE TABLE agentlog_events (
    position INTEGER PRIMARY KEY,
    stream_id TEXT NOT NULL,
    revision INTEGER NOT NULL,
    event_id TEXT NOT NULL,
    type TEXT NOT NULL,
    event TEXT NOT NULL,
    CONSTRAINT agentlog_events_revision UNIQUE (stream_id, revision),
    CONSTRAINT agentlog_events_event_id UNIQUE (stream_id, event_id)
  ) STRICT;
  CREATE INDEX agentlog_stream_starts ON agentlog_events (position) WHERE revision = 0;
  CREATE TABLE agentlog_work (
    stream_id TEXT PRIMARY KEY,
    status TEXT NOT NULL CHECK (status IN ('requested', 'ready', 'running', 'idle')),
    agent TEXT,
    owner TEXT,
    lease_until INTEGER,
    since INTEGER NOT NULL,
    updated INTEGER NOT NULL
  ) STRICT;
  CREATE INDEX agentlog_work_waiting ON agentlog_work (since)
    WHERE status IN ('requested', 'ready');
  CREATE INDEX agentlog_work_leases ON agentlog_work (lease_until) WHERE status = 'running';
  CREATE TABLE agentlog_workers (
    id TEXT PRIMARY KEY,
    host TEXT NOT NULL,
    pid INTEGER NOT NULL,
    started_at INTEGER NOT NULL,
    heartbeat_at INTEGER NOT NULL,
    runs TEXT NOT NULL
  ) STRICT;
  INSERT INTO agentlog_meta (key, value) VALUES ('schemaVersion', '2');
`;

const at = '2025-01-02T03:04:05.678Z';
let ids = 0;
const stored = (
  streamId: string,
  revision: number,
  type: string,
  data: unknown,
): { id: string; json: string } => {
  const id = `e${(ids += 1)}`;
  const metadata = { eventId: id, at, schemaVersion: 4, revision, streamId };
  return { id, json: JSON.stringify({ type, data, metadata }) };
};
const stop = (kind: string) => ({
  reason:
    kind === 'feedbackRequired'
      ? { kind, toolCall: { id: 'c1', name: 'deploy', args: '{}' } }
      : { kind: 'noNewMessages' },
  cause: 'loop',
});

/**
 * A database as the current main (schema version 2) left it: a stream that waits for a decision
 * (indexed `idle`, as version 2 wrote it), a finished stream, one that waited once and was run
 * again, and a requested one.
 */
function versionTwoDatabase(): string {
  const path = freshPath();
  const raw = new Database(path);
  raw.pragma('journal_mode = WAL');
  raw.pragma(`application_id = ${agentlogApplicationId}`);
  raw.exec(versionTwoSchema);
  const event = raw.prepare(
    'INSERT INTO agentlog_events (stream_id, revision, event_id, type, event) VALUES (?, ?, ?, ?, ?)',
  );
  const work = raw.prepare(
    'INSERT INTO agentlog_work (stream_id, status, agent, since, updated) VALUES (?, ?, ?, 1, 1)',
  );
  const write = (streamId: string, types: [string, unknown][], status: string): void => {
    types.forEach(([type, data], revision) => {
      const { id, json } = stored(streamId, revision, type, data);
      event.run(streamId, revision, id, type, json);
    });
    work.run(streamId, status, 'deployer');
  };
  const started = ['RunStarted', { mode: 'run' }] as [string, unknown];
  write('waits', [started, ['AgentStopped', stop('feedbackRequired')]], 'idle');
  write('done', [started, ['AgentStopped', stop('noNewMessages')]], 'idle');
  write(
    'resumed',
    [started, ['AgentStopped', stop('feedbackRequired')], started, ['AgentStopped', stop('x')]],
    'idle',
  );
  write('asked', [['RunRequested', { agent: 'deployer' }]], 'requested');
  raw.close();
  return path;
}

const schemaOf = (path: string): { version: string; check: string } => {
  const raw = new Database(path, { readonly: true });
  try {
    return {
      version: raw
        .prepare("SELECT value FROM agentlog_meta WHERE key = 'schemaVersion'")
        .pluck()
        .get() as string,
      check: raw
        .prepare("SELECT sql FROM sqlite_schema WHERE name = 'agentlog_work'")
        .pluck()
        .get() as string,
    };
  } finally {
    raw.close();
  }
};

const next = (streamId: string, revision: number): NewStreamEvent => ({
  type: 'WarningRecorded',
  data: { code: 'x', message: 'x' },
  metadata: { eventId: `${streamId}-${revision}`, at, schemaVersion: 4 },
});

describe('SQLite schema version 3: the waiting status (WRK-2)', () => {
  it('WRK-2 migrates a version 2 database in place: waiting allowed, a stream that waits for a decision becomes waiting, the events and other entries kept', async () => {
    const path = versionTwoDatabase();
    expect(schemaOf(path).check).not.toContain("'waiting'");
    const store = createSqliteEventStore({ path });
    try {
      expect(schemaOf(path)).toMatchObject({ version: String(sqliteSchemaVersion) });
      expect(schemaOf(path).check).toContain("'waiting'");
      // On through version 4: the rebuilt table has the fencing token's column (WRK-8).
      expect(schemaOf(path).check).toContain('fence INTEGER');
      expect(new Map([...(await store.work.workOf())].map(([id, w]) => [id, w.status]))).toEqual(
        new Map([
          ['asked', 'requested'],
          ['done', 'idle'],
          ['resumed', 'idle'],
          ['waits', 'waiting'],
        ]),
      );
      expect((await store.readStream('waits')).map((e) => e.type)).toEqual([
        'RunStarted',
        'AgentStopped',
      ]);
      expect(await store.work.findWork({ limit: 10, agents: ['deployer'] })).toMatchObject([
        { streamId: 'asked', reason: 'requested' },
      ]);
      // The rebuilt table takes `waiting` and keeps its partial indexes.
      await store.appendToStream('done', [next('done', 2)], {
        expectedRevision: 1,
        work: { status: 'waiting', agent: 'deployer' },
      });
      await store.appendToStream('waits', [next('waits', 2)], {
        expectedRevision: 1,
        work: { status: 'ready', agent: 'deployer' },
      });
      expect((await store.work.workOf(['done'])).get('done')?.status).toBe('waiting');
      expect(
        (await store.work.findWork({ limit: 10, agents: ['deployer'] })).map((i) => i.streamId),
      ).toEqual(['asked', 'waits']);
    } finally {
      store.close();
    }
    const raw = new Database(path, { readonly: true });
    try {
      expect(
        raw
          .prepare(
            "SELECT name FROM sqlite_schema WHERE type = 'index' AND name LIKE 'agentlog_work_%' ORDER BY name",
          )
          .pluck()
          .all(),
      ).toEqual(['agentlog_work_leases', 'agentlog_work_waiting']);
    } finally {
      raw.close();
    }
    // Opening it again finds nothing left to migrate.
    createSqliteEventStore({ path }).close();
    expect(schemaOf(path).version).toBe(String(sqliteSchemaVersion));
  });

  it('REV-2 WRK-2 read-only, a version 2 database is not migrated, and reads a stream that waits for a decision as waiting', async () => {
    const path = versionTwoDatabase();
    const store = createSqliteEventStore({ path, readonly: true });
    try {
      const work = await store.work.workOf();
      expect(work.get('waits')?.status).toBe('waiting');
      expect(work.get('done')?.status).toBe('idle');
      expect((await store.work.workOf(['waits', 'resumed'])).get('resumed')?.status).toBe('idle');
    } finally {
      store.close();
    }
    expect(schemaOf(path).version).toBe('2');
  });
});
