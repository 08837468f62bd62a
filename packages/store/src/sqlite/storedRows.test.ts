import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import type { NewStreamEvent } from '@agentlog/core';
import { createSqliteEventStore } from './createSqliteEventStore.js';
import { prepareSqliteStatements } from './prepareSqliteStatements.js';
import { rowsAtOnce, storedRows } from './storedRows.js';

const dir = mkdtempSync(join(tmpdir(), 'agentlog-sqlite-rows-'));
let files = 0;
const freshPath = (): string => join(dir, `rows-${(files += 1)}.db`);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const numbered = (count: number): NewStreamEvent[] =>
  Array.from({ length: count }, (_, n) => ({
    type: 'Numbered',
    data: { n },
    metadata: { eventId: `e-${n}`, at: '2025-01-02T03:04:05.678Z', schemaVersion: 1 },
  }));

async function streamOf(count: number): Promise<string> {
  const path = freshPath();
  const store = createSqliteEventStore({ path, durability: 'process' });
  try {
    await store.appendToStream('s', numbered(count), { expectedRevision: 'noStream' });
  } finally {
    store.close();
  }
  return path;
}

describe('SQLite reads: a page at once, a longer read row by row', () => {
  it('hands a page of at most rowsAtOnce rows over at once, and a longer or unbounded read as the statement steps', async () => {
    const db = new Database(await streamOf(3));
    try {
      const { forwards } = prepareSqliteStatements(db);
      const page = storedRows(forwards, 's', 0, rowsAtOnce);
      expect(Array.isArray(page)).toBe(true);
      expect([...page].map(([revision]) => revision)).toEqual([0, 1, 2]);
      for (const maxCount of [rowsAtOnce + 1, -1]) {
        const stepped = storedRows(forwards, 's', 1, maxCount);
        expect(Array.isArray(stepped)).toBe(false);
        expect([...stepped].map(([revision]) => revision)).toEqual([1, 2]);
      }
    } finally {
      db.close();
    }
  });

  it('EVT-4 SQLite: a bad row stops a page read and a row-by-row read alike, naming its revision and type', async () => {
    const path = await streamOf(4);
    const raw = new Database(path);
    raw.prepare('UPDATE agentlog_events SET event = \'{"type": oops\' WHERE revision = 2').run();
    raw.close();
    const store = createSqliteEventStore({ path, readonly: true });
    try {
      for (const options of [{ maxCount: 3 }, { maxCount: rowsAtOnce + 1 }, {}]) {
        await expect(store.readStream('s', options)).rejects.toMatchObject({
          code: 'invalidEvent',
          eventType: 'Numbered',
          revision: 2,
        });
      }
      // The rows before it, and after it backwards, still read.
      const revisions = async (options: object): Promise<number[]> =>
        (await store.readStream('s', options)).map((event) => event.metadata.revision);
      expect(await revisions({ maxCount: 2 })).toEqual([0, 1]);
      expect(await revisions({ direction: 'backwards', maxCount: 1 })).toEqual([3]);
    } finally {
      store.close();
    }
  });
});
