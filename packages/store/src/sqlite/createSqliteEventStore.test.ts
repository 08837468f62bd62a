import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { firstValueFrom, take, timeout, toArray } from 'rxjs';
import { afterAll, describe, expect, it } from 'vitest';
import type { NewStreamEvent } from '@agentlog/core';
import {
  describeEventStoreConformance,
  describeWorkIndexConformance,
} from '../conformance/eventStoreConformance.js';
import {
  createSqliteEventStore,
  synchronousLevel,
  type SqliteDurability,
  type SqliteEventStore,
} from './createSqliteEventStore.js';

const dir = mkdtempSync(join(tmpdir(), 'agentlog-sqlite-'));
let fileCounter = 0;
const freshPath = (): string => join(dir, `store-${(fileCounter += 1)}.db`);
const open: SqliteEventStore[] = [];
const openStore = (path: string): SqliteEventStore => {
  const store = createSqliteEventStore({ path });
  open.push(store);
  return store;
};

afterAll(() => {
  for (const store of open) store.close();
  rmSync(dir, { recursive: true, force: true });
});

describeEventStoreConformance('SQLite event store', () => {
  const store = createSqliteEventStore({ path: freshPath() });
  return Promise.resolve({ store, close: () => Promise.resolve(store.close()) });
});

describeWorkIndexConformance('SQLite work index', () => {
  // The store's clock, set by the tests: leases are judged on it, never on Date.now (SPEC WRK-4).
  let now = Date.parse('2030-01-01T00:00:00.000Z');
  const store = createSqliteEventStore({ path: freshPath(), clock: () => new Date(now) });
  return Promise.resolve({
    store,
    close: () => Promise.resolve(store.close()),
    advanceClock: (ms: number) => {
      now += ms;
    },
  });
});

const event = (id: string, n = 0): NewStreamEvent => ({
  type: 'Numbered',
  data: { n },
  metadata: { eventId: id, at: '2025-01-02T03:04:05.678Z', schemaVersion: 1 },
});

function refusal(path: string): unknown {
  try {
    createSqliteEventStore({ path }).close();
  } catch (error) {
    return error;
  }
  throw new Error('expected the store to refuse the file');
}

describe('SQLite event store on a file', () => {
  it('runs the database in WAL mode', () => {
    const path = freshPath();
    openStore(path);
    const raw = new Database(path, { readonly: true });
    expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
    raw.close();
  });

  it('creates the folder of the database', async () => {
    const path = join(dir, 'nested', 'deeper', 'agentlog.db');
    const store = openStore(path);
    await store.appendToStream('run-1', [event('a')], { expectedRevision: 'noStream' });
    expect(existsSync(path)).toBe(true);
  });

  it("lets two instances on one file see each other's events", async () => {
    const path = freshPath();
    const one = openStore(path);
    const two = openStore(path);
    await one.appendToStream('run-1', [event('a', 0)], { expectedRevision: 'noStream' });
    await two.appendToStream('run-1', [event('b', 1)], { expectedRevision: 0 });
    await two.appendToStream('run-2', [event('c', 0)], { expectedRevision: 'noStream' });
    expect((await one.readStream('run-1')).map((e) => e.data)).toEqual([{ n: 0 }, { n: 1 }]);
    expect(await one.listStreams()).toEqual(['run-1', 'run-2']);
  });

  it('RES-3: maps a conflict between two instances to a ConcurrencyError and stores nothing', async () => {
    const path = freshPath();
    const one = openStore(path);
    const two = openStore(path);
    await one.appendToStream('run-1', [event('a'), event('b')], { expectedRevision: 'noStream' });
    await one.appendToStream('run-1', [event('by-one')], { expectedRevision: 1 });
    await expect(
      two.appendToStream('run-1', [event('by-two-1'), event('by-two-2')], { expectedRevision: 1 }),
    ).rejects.toMatchObject({
      name: 'ConcurrencyError',
      code: 'concurrency',
      streamId: 'run-1',
      expected: 1,
      actual: 2,
    });
    const ids = (await two.readStream('run-1')).map((e) => e.metadata.eventId);
    expect(ids).toEqual(['a', 'b', 'by-one']);
  });

  it('RES-3: turns a unique-constraint violation (a writer past the check) into a ConcurrencyError and stores nothing', async () => {
    const path = freshPath();
    const store = openStore(path);
    await store.appendToStream('run-1', [event('a')], { expectedRevision: 'noStream' });
    // A trigger plays the other process: it takes the revision between the check and the insert.
    const raw = new Database(path);
    raw.exec(`CREATE TRIGGER intruder BEFORE INSERT ON agentlog_events WHEN NEW.event_id = 'late'
      BEGIN INSERT INTO agentlog_events (stream_id, revision, event_id, type, event)
      VALUES (NEW.stream_id, NEW.revision, 'intruder', 'X', '{}'); END`);
    raw.close();
    await expect(
      store.appendToStream('run-1', [event('late')], { expectedRevision: 0 }),
    ).rejects.toMatchObject({ code: 'concurrency', streamId: 'run-1', expected: 0, actual: 0 });
    expect((await store.readStream('run-1')).map((e) => e.metadata.eventId)).toEqual(['a']);
  });

  it('delivers to a subscription an append made through another instance', async () => {
    const path = freshPath();
    const reader = openStore(path);
    const writer = openStore(path);
    await writer.appendToStream('run-1', [event('a', 0)], { expectedRevision: 'noStream' });
    const received = firstValueFrom(
      reader.subscribeToStream('run-1').pipe(take(3), toArray(), timeout(5_000)),
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    await writer.appendToStream('run-1', [event('b', 1), event('c', 2)], { expectedRevision: 0 });
    expect((await received).map((e) => e.metadata.revision)).toEqual([0, 1, 2]);
  });

  it('refuses a file that is not an SQLite database, naming it and leaving it as it was', () => {
    const path = join(dir, 'notes.txt');
    writeFileSync(path, 'these are my notes, not a database\n'.repeat(50));
    const before = readFileSync(path);
    const error = refusal(path);
    expect(error).toMatchObject({ code: 'notAgentlogDatabase' });
    expect((error as Error).message).toContain(path);
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it('refuses an SQLite database of another application, naming it and leaving it as it was', () => {
    const path = join(dir, 'foreign.db');
    const raw = new Database(path);
    raw.exec("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('keep me')");
    raw.close();
    const before = readFileSync(path);
    const error = refusal(path);
    expect(error).toMatchObject({ code: 'notAgentlogDatabase' });
    expect((error as Error).message).toContain(path);
    expect(readFileSync(path).equals(before)).toBe(true);
  });

  it('refuses a database written by a newer agentlog, saying to upgrade', () => {
    const path = freshPath();
    createSqliteEventStore({ path }).close();
    const raw = new Database(path);
    raw.exec("UPDATE agentlog_meta SET value = '99' WHERE key = 'schemaVersion'");
    raw.close();
    const error = refusal(path);
    expect(error).toMatchObject({ code: 'newerSchema' });
    expect((error as Error).message).toContain(path);
    expect((error as Error).message).toContain('upgrade agentlog');
  });

  it('accepts an empty file as a new database, and reopens its own database', async () => {
    const path = freshPath();
    writeFileSync(path, '');
    const first = createSqliteEventStore({ path });
    await first.appendToStream('run-1', [event('a')], { expectedRevision: 'noStream' });
    first.close();
    const again = openStore(path);
    expect(await again.readStream('run-1')).toHaveLength(1);
  });

  it('close() fails live subscriptions, stops polling and releases the file', async () => {
    const path = freshPath();
    const store = createSqliteEventStore({ path });
    await store.appendToStream('run-1', [event('a')], { expectedRevision: 'noStream' });
    const timers = (): number =>
      process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
    const idle = timers();
    const received: string[] = [];
    const errors: unknown[] = [];
    store.subscribeToStream('run-1').subscribe({
      next: (e) => received.push(e.metadata.eventId),
      error: (error: unknown) => errors.push(error),
    });
    expect(timers()).toBe(idle + 1);
    store.close();
    expect(received).toEqual(['a']);
    expect(errors).toEqual([expect.objectContaining({ code: 'closed' })]);
    expect(timers()).toBe(idle);
    // SQLite removes the WAL file when the last connection closes.
    expect(existsSync(`${path}-wal`)).toBe(false);
    await expect(store.readStream('run-1')).rejects.toMatchObject({ code: 'closed' });
    store.close();
  });

  it('clears its polling timer when the last subscription ends', () => {
    const store = openStore(freshPath());
    const timers = (): number =>
      process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
    const idle = timers();
    const one = store.subscribeToStream('run-1').subscribe(() => undefined);
    const two = store.subscribeToStream('run-2').subscribe(() => undefined);
    expect(timers()).toBe(idle + 1);
    one.unsubscribe();
    expect(timers()).toBe(idle + 1);
    two.unsubscribe();
    expect(timers()).toBe(idle);
  });
});

describe('SQLite durability', () => {
  it('syncs every append with full, only the durable ones with sideEffects, none with process', () => {
    expect(synchronousLevel('full', false)).toBe('FULL');
    expect(synchronousLevel('full', true)).toBe('FULL');
    expect(synchronousLevel('sideEffects', false)).toBe('NORMAL');
    expect(synchronousLevel('sideEffects', true)).toBe('FULL');
    expect(synchronousLevel('process', false)).toBe('NORMAL');
    expect(synchronousLevel('process', true)).toBe('NORMAL');
  });

  it('keeps every append under each setting, durable or not, for a second instance to read', async () => {
    for (const durability of ['full', 'sideEffects', 'process'] as const) {
      const path = freshPath();
      const store = createSqliteEventStore({ path, durability });
      open.push(store);
      await store.appendToStream('s', [event('a')], { expectedRevision: 'noStream' });
      await store.appendToStream('s', [event('b')], { expectedRevision: 0, durable: true });
      await store.appendToStream('s', [event('c')], { expectedRevision: 1 });
      const other = openStore(path);
      expect((await other.readStream('s')).map((e) => e.metadata.eventId)).toEqual(['a', 'b', 'c']);
    }
  });

  it('refuses an unknown durability, naming it, before it touches the file', () => {
    const path = freshPath();
    expect(() =>
      createSqliteEventStore({ path, durability: 'sometimes' as SqliteDurability }),
    ).toThrow(/durability must be one of full, sideEffects, process, not sometimes/);
    expect(existsSync(path)).toBe(false);
  });
});
