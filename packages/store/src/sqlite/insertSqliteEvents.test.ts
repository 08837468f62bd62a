import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import type { NewStreamEvent } from '@agentlog/core';
import { createSqliteEventStore, type SqliteEventStore } from './createSqliteEventStore.js';

const dir = mkdtempSync(join(tmpdir(), 'agentlog-sqlite-append-'));
let files = 0;
const freshPath = (): string => join(dir, `append-${(files += 1)}.db`);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const event = (id: string): NewStreamEvent => ({
  type: 'Named',
  data: { id },
  metadata: { eventId: id, at: '2025-01-02T03:04:05.678Z', schemaVersion: 1 },
});

/** The stored rows of `streamId` as `revision:eventId`, and their positions in append order. */
function rows(path: string, streamId: string): { ids: string[]; positions: number[] } {
  const db = new Database(path, { readonly: true });
  try {
    const found = db
      .prepare(
        'SELECT revision, event_id, position FROM agentlog_events WHERE stream_id = ? ORDER BY revision',
      )
      .raw()
      .all(streamId) as [number, string, number][];
    return {
      ids: found.map(([revision, id]) => `${revision}:${id}`),
      positions: found.map(([, , position]) => position),
    };
  } finally {
    db.close();
  }
}

/** Runs `test` on a store over a new file (`process` durability), closed afterwards. */
async function withStore(
  test: (store: SqliteEventStore, path: string) => Promise<void>,
): Promise<void> {
  const path = freshPath();
  const store = createSqliteEventStore({ path, durability: 'process' });
  try {
    await test(store, path);
  } finally {
    store.close();
  }
}

describe('SQLite append without a lookup per event id (insertSqliteEvents)', () => {
  it('RES-3 idempotence: a batch whose stored id follows new ones stores only the new ones, at consecutive revisions', () =>
    withStore(async (store, path) => {
      await store.appendToStream('run-1', [event('a')], { expectedRevision: 'noStream' });
      const result = await store.appendToStream('run-1', [event('c'), event('a'), event('d')], {
        expectedRevision: 0,
      });
      expect(result).toEqual({ nextExpectedRevision: 2 });
      const stored = rows(path, 'run-1');
      expect(stored.ids).toEqual(['0:a', '1:c', '2:d']);
      expect(stored.positions).toEqual([...stored.positions].sort((x, y) => x - y));
      expect((await store.readStream('run-1')).map((e) => e.metadata.revision)).toEqual([0, 1, 2]);
    }));

  it('RES-3 idempotence: an id offered twice in one batch is stored once', () =>
    withStore(async (store, path) => {
      const result = await store.appendToStream('run-1', [event('x'), event('y'), event('x')], {
        expectedRevision: 'noStream',
      });
      expect(result).toEqual({ nextExpectedRevision: 1 });
      expect(rows(path, 'run-1').ids).toEqual(['0:x', '1:y']);
    }));

  it('RES-3: a stale expectation with a stored id in the batch is still a conflict, and stores nothing', () =>
    withStore(async (store, path) => {
      await store.appendToStream('run-1', [event('a'), event('b')], {
        expectedRevision: 'noStream',
      });
      await expect(
        store.appendToStream('run-1', [event('c'), event('a')], { expectedRevision: 0 }),
      ).rejects.toMatchObject({ code: 'concurrency', expected: 0, actual: 1 });
      expect(rows(path, 'run-1').ids).toEqual(['0:a', '1:b']);
    }));

  it('rolls back the inserts of a batch that SQLite refuses for another reason, and names the stream', () =>
    withStore(async (store, path) => {
      await store.appendToStream('run-1', [event('a')], { expectedRevision: 'noStream' });
      const raw = new Database(path);
      raw.exec(`CREATE TRIGGER refuse BEFORE INSERT ON agentlog_events WHEN NEW.event_id = 'bad'
      BEGIN SELECT RAISE(ABORT, 'refused by a trigger'); END`);
      raw.close();
      await expect(
        store.appendToStream('run-1', [event('b'), event('bad')], { expectedRevision: 0 }),
      ).rejects.toMatchObject({
        code: 'storeUnavailable',
        message: expect.stringContaining('stream run-1') as unknown,
      });
      expect(rows(path, 'run-1').ids).toEqual(['0:a']);
    }));
});
