import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { firstValueFrom, take, timeout, toArray } from 'rxjs';
import { afterAll, describe, expect, it } from 'vitest';
import type { NewStreamEvent } from '@agentlog/core';
import { sqliteSchemaVersion } from './agentlogSchema.js';
import { createSqliteEventStore, type SqliteEventStore } from './createSqliteEventStore.js';
import { holdWriteLock } from '../test/holdWriteLock.js';
import { rejection } from '../test/rejection.js';

const dir = mkdtempSync(join(tmpdir(), 'agentlog-sqlite-readonly-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let counter = 0;
/** A new folder of its own, so the test can see every file that appears in it. */
const freshFolder = (): string => {
  const folder = join(dir, `case-${(counter += 1)}`);
  mkdirSync(folder);
  return folder;
};

const event = (id: string, n = 0): NewStreamEvent => ({
  type: 'Numbered',
  data: { n },
  metadata: { eventId: id, at: '2025-01-02T03:04:05.678Z', schemaVersion: 1 },
});

/** A closed agentlog database with streams `a` (a0, a1) and `b` (b0): only the .db file is left. */
async function storedDatabase(folder: string): Promise<string> {
  const path = join(folder, 'agentlog.db');
  const store = createSqliteEventStore({ path });
  await store.appendToStream('a', [event('a0'), event('a1', 1)], { expectedRevision: 'noStream' });
  await store.appendToStream('b', [event('b0')], { expectedRevision: 'noStream' });
  store.close();
  return path;
}

const ids = async (store: SqliteEventStore, streamId: string): Promise<string[]> =>
  (await store.readStream(streamId)).map((e) => e.metadata.eventId);

function thrown(work: () => unknown): Error {
  try {
    work();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a throw');
}

describe('a SQLite store opened read-only (REV-2)', () => {
  it('REV-2 SQLite: reads, lists and subscribes without writing: the file keeps its bytes and mtime, and no -wal or -shm file appears', async () => {
    const folder = freshFolder();
    const path = await storedDatabase(folder);
    expect(readdirSync(folder)).toEqual(['agentlog.db']);
    const bytes = readFileSync(path);
    const { mtimeMs } = statSync(path);

    const store = createSqliteEventStore({ path, readonly: true });
    expect(await ids(store, 'a')).toEqual(['a0', 'a1']);
    expect(await store.readStream('a', { direction: 'backwards', maxCount: 1 })).toHaveLength(1);
    expect(await store.listStreams()).toEqual(['a', 'b']);
    const delivered = await firstValueFrom(
      store.subscribeToStream('b').pipe(take(1), toArray(), timeout(5_000)),
    );
    expect(delivered.map((e) => e.metadata.eventId)).toEqual(['b0']);
    store.close();

    expect(readdirSync(folder)).toEqual(['agentlog.db']);
    expect(readFileSync(path).equals(bytes)).toBe(true);
    expect(statSync(path).mtimeMs).toBe(mtimeMs);
  });

  it('REV-2 SQLite: with no writer, reads a copy in a temporary folder (not in memory), removed on close (issue 21)', async () => {
    const path = await storedDatabase(freshFolder());
    const store = createSqliteEventStore({ path, readonly: true });
    expect(await ids(store, 'a')).toEqual(['a0', 'a1']);
    // The files this process has open, as Linux lists them.
    const open = readdirSync('/proc/self/fd').flatMap((fd) => {
      try {
        return [readlinkSync(join('/proc/self/fd', fd))];
      } catch {
        return [];
      }
    });
    const copies = open.filter((file) => /agentlog-readonly-[^/]+\/copy\.db$/.test(file));
    expect(copies).toHaveLength(1);
    const copy = copies[0] as string;
    expect(statSync(copy).size).toBe(statSync(path).size);
    store.close();
    expect(existsSync(copy)).toBe(false);
    expect(existsSync(dirname(copy))).toBe(false);
  });

  it('REV-2 SQLite: refuses an append with storeFailed saying the store was opened read-only, and stores nothing', async () => {
    const path = await storedDatabase(freshFolder());
    const store = createSqliteEventStore({ path, readonly: true });
    const error = await rejection(
      store.appendToStream('a', [event('a2', 2)], { expectedRevision: 1 }),
    );
    expect(error).toMatchObject({ name: 'AgentError', code: 'storeFailed' });
    expect(error.message).toBe(
      `SQLite store ${path}, stream a: the append was refused: the store was opened read-only (readonly: true)`,
    );
    store.close();
    const writer = createSqliteEventStore({ path });
    expect(await ids(writer, 'a')).toEqual(['a0', 'a1']);
    writer.close();
  });

  it('REV-2 SQLite: refuses a missing file, an empty file, a database of another application and a newer schema, naming the path, and creates or changes nothing', () => {
    const folder = freshFolder();
    const missing = join(folder, 'missing.db');
    expect(thrown(() => createSqliteEventStore({ path: missing, readonly: true }))).toMatchObject({
      code: 'notAgentlogDatabase',
      message: `${missing} is not an agentlog database: there is no such file, and a store opened read-only creates none; nothing was changed in it`,
    });
    expect(existsSync(missing)).toBe(false);

    const empty = join(folder, 'empty.db');
    writeFileSync(empty, '');
    expect(thrown(() => createSqliteEventStore({ path: empty, readonly: true }))).toMatchObject({
      code: 'notAgentlogDatabase',
      message: `${empty} is not an agentlog database: it holds no agentlog schema, and a store opened read-only creates none; nothing was changed in it`,
    });
    expect(statSync(empty).size).toBe(0);

    const other = join(folder, 'other.db');
    const raw = new Database(other);
    raw.exec('CREATE TABLE notes (text TEXT)');
    raw.close();
    const otherBytes = readFileSync(other);
    expect(thrown(() => createSqliteEventStore({ path: other, readonly: true }))).toMatchObject({
      code: 'notAgentlogDatabase',
      message: `${other} is not an agentlog database: it is an SQLite database of another application; nothing was changed in it`,
    });
    expect(readFileSync(other).equals(otherBytes)).toBe(true);
    expect(readdirSync(folder).sort()).toEqual(['empty.db', 'other.db']);
  });

  it('REV-2 SQLite: refuses a database written by a newer agentlog, saying to upgrade', async () => {
    const path = await storedDatabase(freshFolder());
    const raw = new Database(path);
    raw.prepare("UPDATE agentlog_meta SET value = '99' WHERE key = 'schemaVersion'").run();
    raw.close();
    expect(thrown(() => createSqliteEventStore({ path, readonly: true }))).toMatchObject({
      code: 'newerSchema',
      message: `${path} has agentlog schema version 99, newer than ${sqliteSchemaVersion} which this agentlog knows: upgrade agentlog to open it`,
    });
  });

  it('REV-2 SQLite: opens, reads and lists at once while another process holds the write lock, never waiting for it', async () => {
    const path = await storedDatabase(freshFolder());
    const lock = await holdWriteLock(path);
    try {
      // A wait for the lock would take the whole busy timeout: 30 s, far beyond any slow machine.
      const started = Date.now();
      const store = createSqliteEventStore({ path, readonly: true, busyTimeoutMs: 30_000 });
      expect(await ids(store, 'a')).toEqual(['a0', 'a1']);
      expect(await store.listStreams()).toEqual(['a', 'b']);
      store.close();
      expect(Date.now() - started).toBeLessThan(15_000);
    } finally {
      await lock.release();
    }
  }, 60_000);

  it('REV-2 SQLite: reads and subscriptions see what a writer appends after the store opened, whether the writer keeps the file open or has closed it', async () => {
    const folder = freshFolder();
    const path = await storedDatabase(folder);
    const reader = createSqliteEventStore({ path, readonly: true });
    expect(await ids(reader, 'a')).toEqual(['a0', 'a1']);
    // Subscribed while no writer has the file open.
    const live = firstValueFrom(
      reader.subscribeToStream('a').pipe(take(4), toArray(), timeout(10_000)),
    );

    const writer = createSqliteEventStore({ path });
    await writer.appendToStream('a', [event('a2', 2)], { expectedRevision: 1 });
    expect(await ids(reader, 'a')).toEqual(['a0', 'a1', 'a2']);
    await writer.appendToStream('a', [event('a3', 3)], { expectedRevision: 2 });
    expect((await live).map((e) => e.metadata.eventId)).toEqual(['a0', 'a1', 'a2', 'a3']);
    writer.close();

    const later = createSqliteEventStore({ path });
    await later.appendToStream('c', [event('c0')], { expectedRevision: 'noStream' });
    later.close();
    expect(await reader.listStreams()).toEqual(['a', 'b', 'c']);
    reader.close();
  });

  it('REV-2 SQLite: a subscription opened while no writer has the file open gets the events a writer appends later', async () => {
    const path = await storedDatabase(freshFolder());
    const reader = createSqliteEventStore({ path, readonly: true });
    const delivered = firstValueFrom(
      reader.subscribeToStream('b').pipe(take(2), toArray(), timeout(10_000)),
    );
    const writer = createSqliteEventStore({ path });
    await writer.appendToStream('b', [event('b1', 1)], { expectedRevision: 0 });
    expect((await delivered).map((e) => e.metadata.eventId)).toEqual(['b0', 'b1']);
    writer.close();
    reader.close();
  });

  it.skipIf(process.getuid?.() !== 0 || !existsSync('/usr/sbin/runuser'))(
    'REV-2 SQLite: a user who may not write the file or its folder reads it (run as nobody; skipped unless root with runuser)',
    async () => {
      const folder = freshFolder();
      const path = await storedDatabase(folder);
      chmodSync(path, 0o444);
      chmodSync(folder, 0o555);
      chmodSync(dir, 0o755);
      const worker = join(import.meta.dirname, '..', 'test', 'readonlyReadWorker.ts');
      const result = spawnSync(
        '/usr/sbin/runuser',
        [
          '-u',
          'nobody',
          '--',
          process.execPath,
          '--conditions=source',
          '--import',
          'tsx',
          worker,
          path,
          'a',
        ],
        { encoding: 'utf8', timeout: 60_000, cwd: import.meta.dirname },
      );
      chmodSync(folder, 0o755);
      expect(result.stderr).toBe('');
      expect(JSON.parse(result.stdout.trim())).toEqual({
        ok: true,
        ids: ['a0', 'a1'],
        streams: ['a', 'b'],
      });
      expect(readdirSync(folder)).toEqual(['agentlog.db']);
    },
    60_000,
  );
});
