import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { NewStreamEvent } from '@agentlog/core';
import { createSqliteEventStore } from './createSqliteEventStore.js';
import { watchEventLoop } from '../test/eventLoopStall.js';
import { holdWriteLock } from '../test/holdWriteLock.js';
import { rejection } from '../test/rejection.js';

const dir = mkdtempSync(join(tmpdir(), 'agentlog-sqlite-busy-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// Small, so the test is about how many times the store waits, not about how fast the machine is:
// one wait stalls the event loop about 1000 ms, two would stall it 2000 ms or more.
const busyTimeoutMs = 1_000;

const event = (id: string): NewStreamEvent => ({
  type: 'Numbered',
  data: { n: 0 },
  metadata: { eventId: id, at: '2025-01-02T03:04:05.678Z', schemaVersion: 1 },
});

describe('the event loop is blocked at most one busy timeout while another process holds the write lock', () => {
  it('RES-5 SQLite: opening a store on an existing file and appending in one go wait for the lock once, then fail with storeUnavailable naming the file and the stream', async () => {
    const path = join(dir, 'existing.db');
    const setup = createSqliteEventStore({ path });
    await setup.appendToStream('s', [event('a')], { expectedRevision: 'noStream' });
    setup.close();
    const lock = await holdWriteLock(path);
    try {
      const watch = watchEventLoop();
      await new Promise((resolve) => setTimeout(resolve, 20));
      // No timer can run between the open and the append: their waits would add up.
      const store = createSqliteEventStore({ path, busyTimeoutMs });
      const error = await rejection(
        store.appendToStream('s', [event('b')], { expectedRevision: 0 }),
      );
      const stall = await watch.stop();
      expect(error).toMatchObject({ code: 'storeUnavailable' });
      expect(error.message).toBe(
        `SQLite store ${path}, stream s: the append failed: database is locked (SQLITE_BUSY)`,
      );
      expect(stall).toBeGreaterThanOrEqual(busyTimeoutMs - 100);
      expect(stall).toBeLessThan(busyTimeoutMs * 1.9);
      // The reads did not wait at all, and nothing was stored.
      expect((await store.readStream('s')).map((e) => e.metadata.eventId)).toEqual(['a']);
      store.close();
    } finally {
      await lock.release();
    }
  }, 60_000);

  it('RES-5 SQLite: opening a new file whose write lock another process holds waits once in all (WAL switch and schema share one busy timeout), then fails with storeUnavailable naming the file', async () => {
    const path = join(dir, 'new.db');
    const lock = await holdWriteLock(path);
    try {
      const watch = watchEventLoop();
      await new Promise((resolve) => setTimeout(resolve, 20));
      let error: unknown;
      try {
        createSqliteEventStore({ path, busyTimeoutMs }).close();
      } catch (thrown) {
        error = thrown;
      }
      const stall = await watch.stop();
      expect(error).toMatchObject({
        code: 'storeUnavailable',
        message: `SQLite store ${path}: opening the database failed: database is locked (SQLITE_BUSY)`,
      });
      expect(stall).toBeGreaterThanOrEqual(busyTimeoutMs - 100);
      expect(stall).toBeLessThan(busyTimeoutMs * 1.9);
    } finally {
      await lock.release();
    }
    // Once the lock is released, the file opens and gets its schema.
    const store = createSqliteEventStore({ path, busyTimeoutMs });
    await store.appendToStream('s', [event('a')], { expectedRevision: 'noStream' });
    store.close();
  }, 60_000);

  it('refuses a busy timeout that is not an integer >= 0, naming it, before it touches the file', () => {
    const path = join(dir, 'never.db');
    expect(() => createSqliteEventStore({ path, busyTimeoutMs: -1 })).toThrow(
      'SQLite busyTimeoutMs must be an integer >= 0, not -1',
    );
  });
});
