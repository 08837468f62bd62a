import { spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSqliteEventStore } from '@agentlog/store';
import { fixtureEvents } from '../../replay/src/test/fixtureSessions.js';
import { runCliIn } from './test/runCliIn.js';

const dir = mkdtempSync(join(tmpdir(), 'agentlog-cli-readonly-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const repository = resolve(import.meta.dirname, '../../..');
const main = join(import.meta.dirname, 'main.ts');

/** A closed SQLite store in a folder of its own holding the HITL-2 session (calls g1, g2 wait). */
async function storeInFolder(name: string): Promise<{ folder: string; db: string }> {
  const folder = join(dir, name);
  mkdirSync(folder);
  const db = join(folder, 'agentlog.db');
  const store = createSqliteEventStore({ path: db });
  await store.appendToStream(
    'two-approvals',
    await fixtureEvents('HITL-2-two-approvals-one-batch.jsonl'),
    { expectedRevision: 'noStream' },
  );
  store.close();
  return { folder, db };
}

/** Every reading command on the store `db`; report writes its page outside the store's folder. */
const readingCommands = (db: string): string[][] => [
  ['inspect', 'two-approvals', '--store', db],
  ['list', '--store', db],
  ['pending', '--store', db],
  ['show', 'two-approvals', 'g1', '--store', db],
  ['report', 'two-approvals', '--html', join(dir, 'pages', `${Date.now()}.html`), '--store', db],
];

/** Another OS process that holds the write lock of `db` (`BEGIN IMMEDIATE`) until released. */
async function holdWriteLock(db: string): Promise<() => Promise<void>> {
  const child = spawn(
    process.execPath,
    [
      '-e',
      "const db = new (require('better-sqlite3'))(process.argv[1]); db.exec('BEGIN IMMEDIATE');" +
        " console.log('held'); process.stdin.once('data', () => { db.exec('ROLLBACK'); db.close(); process.exit(0); });",
      db,
    ],
    { cwd: repository, stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  await new Promise<void>((held, failed) => {
    child.stdout.once('data', () => held());
    void exited.then(() => failed(new Error('the lock holder exited before holding the lock')));
  });
  return async () => {
    child.stdin.write('release\n');
    await exited;
  };
}

describe('reading commands open a SQLite store read-only (REV-2)', () => {
  it('REV-2: inspect, list, pending, show and report work while another process holds the write lock, and change nothing in the file', async () => {
    const { db } = await storeInFolder('locked');
    const bytes = readFileSync(db);
    const { mtimeMs } = statSync(db);
    const release = await holdWriteLock(db);
    try {
      for (const args of readingCommands(db)) {
        const { code, stderr } = await runCliIn(args, { cwd: dir });
        expect({ args, code, stderr }).toEqual({ args, code: 0, stderr: '' });
      }
    } finally {
      await release();
    }
    expect(readFileSync(db).equals(bytes)).toBe(true);
    expect(statSync(db).mtimeMs).toBe(mtimeMs);
  }, 60_000);

  it('REV-2: inspect, list, pending, show and report leave the file and its folder as they were: same bytes, same mtime, no -wal or -shm file', async () => {
    const { folder, db } = await storeInFolder('untouched');
    const bytes = readFileSync(db);
    const { mtimeMs } = statSync(db);
    expect(readdirSync(folder)).toEqual(['agentlog.db']);
    for (const args of readingCommands(db)) {
      const { code, stderr } = await runCliIn(args, { cwd: dir });
      expect({ args, code, stderr }).toEqual({ args, code: 0, stderr: '' });
    }
    expect(readdirSync(folder)).toEqual(['agentlog.db']);
    expect(readFileSync(db).equals(bytes)).toBe(true);
    expect(statSync(db).mtimeMs).toBe(mtimeMs);
  }, 60_000);

  it('REV-2: a reading command refuses a SQLite file that is not agentlog’s without creating a schema in it', async () => {
    const folder = join(dir, 'foreign');
    mkdirSync(folder);
    const db = join(folder, 'empty.db');
    writeFileSync(db, '');
    const { code, stderr } = await runCliIn(['list', '--store', db], { cwd: dir });
    expect(code).not.toBe(0);
    expect(stderr).toContain(`${db} is not an agentlog database`);
    expect(statSync(db).size).toBe(0);
    expect(readdirSync(folder)).toEqual(['empty.db']);
  });

  it.skipIf(process.getuid?.() !== 0 || !existsSync('/usr/sbin/runuser'))(
    'REV-2: a user who may not write the file or its folder (file 444, folder 555) runs inspect, list, pending, show and report (as nobody; skipped unless root with runuser)',
    async () => {
      const { folder, db } = await storeInFolder('read-only');
      const pages = join(dir, 'nobody-pages');
      mkdirSync(pages);
      chmodSync(pages, 0o777);
      chmodSync(dir, 0o755);
      chmodSync(db, 0o444);
      chmodSync(folder, 0o555);
      try {
        for (const args of readingCommands(db)) {
          const page = args.indexOf('--html');
          if (page >= 0) args[page + 1] = join(pages, 'page.html');
          const run = spawnSync(
            '/usr/sbin/runuser',
            [
              '-u',
              'nobody',
              '--',
              process.execPath,
              '--conditions=source',
              '--import',
              'tsx',
              main,
              ...args,
            ],
            { cwd: repository, encoding: 'utf8', timeout: 60_000 },
          );
          expect({ args, code: run.status, stderr: run.stderr }).toEqual({
            args,
            code: 0,
            stderr: '',
          });
        }
      } finally {
        chmodSync(folder, 0o755);
      }
      expect(readdirSync(folder)).toEqual(['agentlog.db']);
    },
    120_000,
  );
});
