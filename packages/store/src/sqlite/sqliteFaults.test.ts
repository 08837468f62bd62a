import {
  mkdtempSync,
  openSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
  closeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { firstValueFrom, toArray, timeout } from 'rxjs';
import { afterAll, describe, expect, it } from 'vitest';
import { Agent, type NewStreamEvent } from '@agentlog/core';
import { counterIds, fixedClock, scriptedModel, textResponse } from '@agentlog/core/testing';
import { createSqliteEventStore, type SqliteEventStore } from './createSqliteEventStore.js';
import { busyTimeoutMs } from './openAgentlogDatabase.js';
import { rejection } from '../test/rejection.js';

const dir = mkdtempSync(join(tmpdir(), 'agentlog-sqlite-faults-'));
let fileCounter = 0;
const freshPath = (): string => join(dir, `store-${(fileCounter += 1)}.db`);
const opened: SqliteEventStore[] = [];
const openStore = (path: string): SqliteEventStore => {
  const store = createSqliteEventStore({ path });
  opened.push(store);
  return store;
};

afterAll(() => {
  for (const store of opened) {
    try {
      store.close();
    } catch {
      // A test broke its file on purpose.
    }
  }
  rmSync(dir, { recursive: true, force: true });
});

const event = (id: string, n = 0): NewStreamEvent => ({
  type: 'Numbered',
  data: { n },
  metadata: { eventId: id, at: '2025-01-02T03:04:05.678Z', schemaVersion: 1 },
});

function thrown(work: () => unknown): Error {
  try {
    work();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a throw');
}

/** A store holding stream `s` with revisions 0..count-1, and a raw connection to its file. */
async function storeWithStream(count: number): Promise<{
  path: string;
  store: SqliteEventStore;
  raw: Database.Database;
}> {
  const path = freshPath();
  const store = openStore(path);
  await store.appendToStream(
    's',
    Array.from({ length: count }, (_, n) => event(`e${n}`, n)),
    { expectedRevision: 'noStream' },
  );
  const raw = new Database(path);
  return { path, store, raw };
}

/** Overwrites everything after the first pages of the file, behind the store's back. */
function corrupt(path: string): void {
  const raw = new Database(path);
  raw.pragma('wal_checkpoint(TRUNCATE)');
  // A write of another connection makes the store drop its page cache.
  raw.prepare("INSERT INTO agentlog_meta (key, value) VALUES ('touched', 'yes')").run();
  raw.pragma('wal_checkpoint(TRUNCATE)');
  raw.close();
  const size = statSync(path).size;
  const fd = openSync(path, 'r+');
  try {
    writeSync(fd, Buffer.alloc(size - 4096, 0x41), 0, size - 4096, 4096);
  } finally {
    closeSync(fd);
  }
}

describe('SQLite store faults reach the caller as storeUnavailable (RES-5)', () => {
  it(
    'RES-5 SQLite: the write lock held past the busy timeout (SQLITE_BUSY) is storeUnavailable naming the file and the stream, with the driver error as cause; nothing is stored and the next append succeeds',
    async () => {
      const path = freshPath();
      const store = openStore(path);
      await store.appendToStream('s', [event('a')], { expectedRevision: 'noStream' });
      const other = new Database(path);
      other.exec('BEGIN IMMEDIATE');
      const started = Date.now();
      const error = await rejection(
        store.appendToStream('s', [event('b')], { expectedRevision: 0 }),
      );
      expect(Date.now() - started).toBeGreaterThanOrEqual(busyTimeoutMs - 100);
      other.exec('ROLLBACK');
      other.close();
      expect(error).toMatchObject({ name: 'AgentError', code: 'storeUnavailable' });
      expect(error.message).toBe(
        `SQLite store ${path}, stream s: the append failed: database is locked (SQLITE_BUSY)`,
      );
      expect(error.cause).toMatchObject({ name: 'SqliteError', code: 'SQLITE_BUSY' });
      expect((await store.readStream('s')).map((e) => e.metadata.eventId)).toEqual(['a']);
      await store.appendToStream('s', [event('b')], { expectedRevision: 0 });
      expect((await store.readStream('s')).map((e) => e.metadata.eventId)).toEqual(['a', 'b']);
    },
    busyTimeoutMs * 3,
  );

  it('RES-5 SQLite: a damaged file (SQLITE_CORRUPT) makes append, read, listStreams and subscribe fail with storeUnavailable, never a raw SqliteError', async () => {
    const path = freshPath();
    const store = openStore(path);
    const pad = 'x'.repeat(2_000);
    for (let n = 0; n < 40; n += 1) {
      await store.appendToStream('s', [{ ...event(`e${n}`, n), data: { n, pad } }], {
        expectedRevision: 'any',
      });
    }
    corrupt(path);
    const failures = [
      await rejection(store.appendToStream('s', [event('late')], { expectedRevision: 'any' })),
      await rejection(store.readStream('s')),
      await rejection(store.listStreams()),
      await rejection(firstValueFrom(store.subscribeToStream('s').pipe(toArray()))),
    ];
    const where = `SQLite store ${path}`;
    expect(failures.map((failure) => failure.message)).toEqual([
      `${where}, stream s: the append failed: database disk image is malformed (SQLITE_CORRUPT)`,
      `${where}, stream s: the read failed: database disk image is malformed (SQLITE_CORRUPT)`,
      `${where}: listing the streams failed: database disk image is malformed (SQLITE_CORRUPT)`,
      `${where}, stream s: the read failed: database disk image is malformed (SQLITE_CORRUPT)`,
    ]);
    for (const failure of failures) {
      expect(failure).toMatchObject({ code: 'storeUnavailable' });
      expect(failure.cause).toMatchObject({ name: 'SqliteError', code: 'SQLITE_CORRUPT' });
    }
  });

  it('RES-5 SQLite: a database that cannot be created is storeUnavailable naming the path, with the file system error as cause', () => {
    const file = join(dir, 'a-file');
    writeFileSync(file, 'not a folder');
    const path = join(file, 'agentlog.db');
    const error = thrown(() => createSqliteEventStore({ path }));
    expect(error).toMatchObject({ name: 'AgentError', code: 'storeUnavailable' });
    expect(error.message).toMatch(
      new RegExp(`^SQLite store ${path}: opening the database failed: (EEXIST|ENOTDIR)`),
    );
    expect((error.cause as { code?: string }).code).toMatch(/^(EEXIST|ENOTDIR)$/);
  });

  it('RES-3 SQLite: conflicts and invalid events stay what they are, not storeUnavailable', async () => {
    const store = openStore(freshPath());
    await store.appendToStream('s', [event('a')], { expectedRevision: 'noStream' });
    await expect(
      store.appendToStream('s', [event('b')], { expectedRevision: 'noStream' }),
    ).rejects.toMatchObject({ name: 'ConcurrencyError', code: 'concurrency' });
    await expect(
      store.appendToStream('s', [{ ...event('c'), type: '' }], { expectedRevision: 0 }),
    ).rejects.toMatchObject({ code: 'invalidEvent' });
    store.close();
    await expect(store.readStream('s')).rejects.toMatchObject({ code: 'closed' });
  });
});

describe('SQLite bad data names the file, the stream and the revision (EVT-4)', () => {
  it('EVT-4 SQLite: a stored event that is not JSON is an InvalidEventError naming the file, the stream and the revision', async () => {
    const { path, store, raw } = await storeWithStream(3);
    raw.prepare('UPDATE agentlog_events SET event = \'{"type": oops\' WHERE revision = 1').run();
    raw.close();
    const error = await rejection(store.readStream('s'));
    expect(error).toMatchObject({
      name: 'InvalidEventError',
      code: 'invalidEvent',
      eventType: 'Numbered',
      revision: 1,
    });
    expect(error.message).toMatch(
      new RegExp(
        `^event Numbered at revision 1 is invalid: stream s of SQLite store ${path}: its stored event: it is not JSON \\(`,
      ),
    );
    // The events before it still read.
    expect(await store.readStream('s', { maxCount: 1 })).toHaveLength(1);
  });

  it('EVT-4 SQLite: a stored event with another revision than its row, or no metadata, is named as such', async () => {
    const { store, raw } = await storeWithStream(3);
    raw
      .prepare(
        "UPDATE agentlog_events SET event = json_set(event, '$.metadata.revision', 7) WHERE revision = 2",
      )
      .run();
    raw
      .prepare(
        "UPDATE agentlog_events SET event = json_remove(event, '$.metadata') WHERE revision = 0",
      )
      .run();
    raw.close();
    await expect(store.readStream('s', { fromRevision: 2 })).rejects.toMatchObject({
      code: 'invalidEvent',
      revision: 2,
      message: expect.stringContaining(
        'its stored event says revision 7, but its row is at revision 2',
      ) as unknown,
    });
    await expect(store.readStream('s')).rejects.toMatchObject({
      code: 'invalidEvent',
      revision: 0,
      message: expect.stringContaining('its stored event has no "metadata" object') as unknown,
    });
  });

  it('EVT-4 SQLite: a byte order mark before a stored event is named "a byte order mark (U+FEFF)", not shown as an invisible character', async () => {
    const { store, raw } = await storeWithStream(2);
    raw.prepare('UPDATE agentlog_events SET event = char(65279) || event WHERE revision = 1').run();
    raw.close();
    const error = await rejection(store.readStream('s'));
    expect(error).toMatchObject({ code: 'invalidEvent', revision: 1 });
    expect(error.message).toContain(
      'its stored event: it starts with a byte order mark (U+FEFF), which JSON does not allow',
    );
    expect(error.message).not.toContain('\uFEFF');
  });

  it('EVT-4 SQLite: a deleted row is a revision gap naming the file, the stream and the missing revision, on every kind of read', async () => {
    const { path, store, raw } = await storeWithStream(7);
    raw.prepare('DELETE FROM agentlog_events WHERE revision = 4').run();
    const of = `stream s of SQLite store ${path}`;
    const gap = { name: 'AgentlogError', code: 'revisionGap' };
    await expect(store.readStream('s')).rejects.toMatchObject({
      ...gap,
      message: `${of}: revision 4 is missing: the events jump from 3 to 5`,
    });
    await expect(store.readStream('s', { fromRevision: 4 })).rejects.toMatchObject({
      ...gap,
      message: `${of}: revision 4 is missing: a read from revision 4 finds revision 5 first`,
    });
    await expect(store.readStream('s', { direction: 'backwards' })).rejects.toMatchObject({
      ...gap,
      message: `${of}: revision 4 is missing: the events jump from 3 to 5`,
    });
    await expect(
      store.readStream('s', { direction: 'backwards', fromRevision: 4, maxCount: 2 }),
    ).rejects.toMatchObject({
      ...gap,
      message: `${of}: revision 4 is missing: the events jump from 3 to 5`,
    });
    await expect(
      firstValueFrom(store.subscribeToStream('s').pipe(toArray(), timeout(2_000))),
    ).rejects.toMatchObject({
      ...gap,
      message: `${of}: revision 4 is missing: the events jump from 3 to 5`,
    });
    // Reads that do not span the gap are fine; a read beyond the end is empty.
    expect((await store.readStream('s', { maxCount: 4 })).map((e) => e.metadata.revision)).toEqual([
      0, 1, 2, 3,
    ]);
    expect(await store.readStream('s', { fromRevision: 9 })).toEqual([]);
    expect(
      (await store.readStream('s', { direction: 'backwards', fromRevision: 99, maxCount: 2 })).map(
        (e) => e.metadata.revision,
      ),
    ).toEqual([6, 5]);

    raw.prepare('DELETE FROM agentlog_events WHERE revision IN (0, 1)').run();
    raw.close();
    await expect(store.readStream('s', { maxCount: 2 })).rejects.toMatchObject({
      ...gap,
      message: `${of}: revisions 0 to 1 are missing: the stream starts at revision 2`,
    });
    await expect(
      store.readStream('s', { direction: 'backwards', fromRevision: 3 }),
    ).rejects.toMatchObject({
      ...gap,
      message: `${of}: revisions 0 to 1 are missing: the stream starts at revision 2`,
    });
  });

  it('EVT-4 SQLite: an agent built on a stream with a deleted event reports the gap, not a contradiction of the event after it', async () => {
    const path = freshPath();
    const store = openStore(path);
    const build = (name: string, on: SqliteEventStore = store) =>
      Agent.builder()
        .llm(scriptedModel([textResponse('hello'), textResponse('again')]))
        .store(on)
        .streamId('agent')
        .clock(fixedClock())
        .ids(counterIds(name))
        .build();
    const agent = await build('first');
    await agent.query('Say hello');
    const stored = await store.readStream('agent');
    expect(stored.length).toBeGreaterThan(3);
    const raw = new Database(path);
    raw.prepare("DELETE FROM agentlog_events WHERE stream_id = 'agent' AND revision = 1").run();
    raw.close();
    // Another process: it keeps no fold of the stream, so it reads it all.
    await expect(build('second', openStore(path))).rejects.toMatchObject({
      code: 'revisionGap',
      message: `stream agent of SQLite store ${path}: revision 1 is missing: the events jump from 0 to 2`,
    });
  });
});
