import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentlogApplicationId, sqliteSchemaVersion } from './agentlogSchema.js';

const dir = mkdtempSync(join(tmpdir(), 'agentlog-sqlite-open-'));
const worker = join(import.meta.dirname, '..', 'test', 'openWorker.ts');
const names = Array.from({ length: 8 }, (_, n) => `p${n + 1}`);
let children: ChildProcess[] = [];

interface Outcome {
  readonly name: string;
  readonly ok: boolean;
  readonly ready?: boolean;
  readonly code?: string;
  readonly message?: string;
}

const nextMessage = (child: ChildProcess): Promise<Outcome> =>
  new Promise((resolve, reject) => {
    const exited = (code: number | null) =>
      reject(new Error(`open worker exited with ${String(code)} before reporting`));
    child.once('exit', exited);
    child.once('message', (message: Outcome) => {
      child.off('exit', exited);
      resolve(message);
    });
  });

beforeAll(async () => {
  children = names.map((name) =>
    fork(worker, [name], {
      execArgv: ['--conditions=source', '--import', 'tsx'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    }),
  );
  await Promise.all(children.map(nextMessage));
}, 60_000);

afterAll(() => {
  for (const child of children) child.kill();
  rmSync(dir, { recursive: true, force: true });
});

describe('opening one new SQLite file from several processes at once', () => {
  it('8 processes opening the same new file at the same moment all succeed, 5 files in a row, and the file holds one agentlog schema in WAL mode', async () => {
    for (let round = 1; round <= 5; round += 1) {
      const path = join(dir, `new-${round}.db`);
      const outcomes = children.map(nextMessage);
      // A moment far enough ahead for every process to have the message, on a loaded machine too.
      const at = Date.now() + 500;
      for (const child of children) child.send({ path, at });
      expect(await Promise.all(outcomes)).toEqual(names.map((name) => ({ name, ok: true })));

      const raw = new Database(path, { readonly: true });
      try {
        expect(raw.pragma('application_id', { simple: true })).toBe(agentlogApplicationId);
        expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
        expect(raw.prepare('SELECT key, value FROM agentlog_meta').all()).toEqual([
          { key: 'schemaVersion', value: String(sqliteSchemaVersion) },
        ]);
        expect(
          raw
            .prepare("SELECT name FROM sqlite_schema WHERE name LIKE 'agentlog%' ORDER BY name")
            .pluck()
            .all(),
        ).toEqual([
          'agentlog_caps',
          'agentlog_events',
          'agentlog_meta',
          'agentlog_stream_starts',
          'agentlog_work',
          'agentlog_work_leases',
          'agentlog_work_waiting',
          'agentlog_workers',
        ]);
        expect(
          raw.prepare('SELECT stream_id FROM agentlog_events ORDER BY stream_id').pluck().all(),
        ).toEqual(names);
      } finally {
        raw.close();
      }
    }
  }, 60_000);
});
