import {
  copyFileSync,
  existsSync,
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as FsPromises from 'node:fs/promises';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createSqliteEventStore } from '@agentlog/store';
import { fixtureEvents, fixtureSessions } from '../../replay/src/test/fixtureSessions.js';
import { runCliIn } from './test/runCliIn.js';

/** Set by a test: the next write of a whole file writes half of it, then fails like a full disk. */
const failure = vi.hoisted(() => ({ next: false }));

vi.mock('node:fs/promises', async (importOriginal) => {
  const original = await importOriginal<typeof FsPromises>();
  const writeFile: typeof original.writeFile = async (path, data, options) => {
    if (!failure.next || typeof data !== 'string') return original.writeFile(path, data, options);
    failure.next = false;
    await original.writeFile(path, data.slice(0, data.length / 2), options);
    throw Object.assign(new Error(`ENOSPC: no space left on device, write`), { code: 'ENOSPC' });
  };
  return { ...original, default: { ...original, writeFile }, writeFile };
});

const dir = mkdtempSync(join(tmpdir(), 'agentlog-cli-report-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let folders = 0;

/** A fresh folder with a SQLite store (`agentlog.db`, stream `s`) and a copy of a JSONL session. */
async function workspace() {
  const cwd = join(dir, `w${(folders += 1)}`);
  const db = join(cwd, 'agentlog.db');
  const store = createSqliteEventStore({ path: db });
  await store.appendToStream('s', await fixtureEvents('HITL-9-refund-with-payload.jsonl'), {
    expectedRevision: 'noStream',
  });
  store.close();
  copyFileSync(
    join(fixtureSessions, 'HITL-9-refund-with-payload.jsonl'),
    join(cwd, 'hitl-9.jsonl'),
  );
  const cli = (args: string[]) => runCliIn(args, { cwd });
  const bytes = (file: string) => readFileSync(join(cwd, file));
  return { cwd, db, cli, bytes };
}

describe('agentlog report --html, the file it writes', () => {
  it('REV-2 refuses to write over an existing file without --force: exit 2, names the file, leaves it as it was', async () => {
    const { cwd, cli } = await workspace();
    writeFileSync(join(cwd, 'notes.html'), 'my notes');
    expect(await cli(['report', 's', '--store', 'agentlog.db', '--html', 'notes.html'])).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'agentlog report: refusing to write the report over notes.html: the file exists; give --force to replace it\n',
    });
    expect(readFileSync(join(cwd, 'notes.html'), 'utf8')).toBe('my notes');
    const forced = await cli([
      'report',
      's',
      '--store',
      'agentlog.db',
      '--html',
      'notes.html',
      '--force',
    ]);
    expect(forced).toMatchObject({ code: 0, stderr: '' });
    expect(readFileSync(join(cwd, 'notes.html'), 'utf8')).toMatch(/^<!doctype html>/);
    expect(readdirSync(cwd).filter((name) => name.endsWith('.tmp'))).toEqual([]);
    // --force on a symlink replaces the link with the page; the file it pointed to is kept.
    writeFileSync(join(cwd, 'elsewhere.txt'), 'keep me');
    symlinkSync(join(cwd, 'elsewhere.txt'), join(cwd, 'linked.html'));
    const args = ['report', 's', '--store', 'agentlog.db', '--html', 'linked.html'];
    expect((await cli(args)).code).toBe(2);
    expect((await cli([...args, '--force'])).code).toBe(0);
    expect(readFileSync(join(cwd, 'elsewhere.txt'), 'utf8')).toBe('keep me');
    expect(lstatSync(join(cwd, 'linked.html')).isSymbolicLink()).toBe(false);
  });

  it('REV-2 never writes over the SQLite store it reads, nor its WAL, even with --force', async () => {
    const { cwd, db, cli, bytes } = await workspace();
    const before = bytes('agentlog.db');
    for (const target of ['agentlog.db', './agentlog.db', db, 'agentlog.db-wal']) {
      for (const force of [[], ['--force']]) {
        const result = await cli([
          'report',
          's',
          '--store',
          'agentlog.db',
          '--html',
          target,
          ...force,
        ]);
        expect(result.code, `${target} ${force.join('')}`).toBe(2);
        expect(result.stderr).toBe(
          `agentlog report: refusing to write the report over ${target}: it is ${join(cwd, target === db ? 'agentlog.db' : target.replace('./', ''))}, which this report reads (--force does not change that)\n`,
        );
      }
    }
    // Without --store, the default store .agentlog/agentlog.db is protected as well.
    mkdirSync(join(cwd, '.agentlog'));
    copyFileSync(db, join(cwd, '.agentlog', 'agentlog.db'));
    const defaultStore = await cli(['report', 's', '--html', '.agentlog/agentlog.db', '--force']);
    expect(defaultStore.code).toBe(2);
    expect(defaultStore.stderr).toMatch(/which this report reads/);
    expect(bytes('agentlog.db').equals(before)).toBe(true);
    const store = createSqliteEventStore({ path: db });
    expect(await store.readStream('s')).toHaveLength(16);
    store.close();
  });

  it('REV-2 never writes over the store through a symlink or a hard link to it, even with --force', async () => {
    const { cwd, cli, bytes } = await workspace();
    const before = bytes('agentlog.db');
    symlinkSync(join(cwd, 'agentlog.db'), join(cwd, 'link.html'));
    symlinkSync(cwd, join(cwd, 'here'));
    linkSync(join(cwd, 'agentlog.db'), join(cwd, 'hard.html'));
    for (const target of ['link.html', 'here/agentlog.db', 'hard.html']) {
      const result = await cli([
        'report',
        's',
        '--store',
        'agentlog.db',
        '--html',
        target,
        '--force',
      ]);
      expect(result.code, target).toBe(2);
      expect(result.stderr).toMatch(
        new RegExp(
          `^agentlog report: refusing to write the report over ${target}: it is .*agentlog\\.db, which this report reads`,
        ),
      );
    }
    expect(bytes('agentlog.db').equals(before)).toBe(true);
  });

  it('REV-2 never writes over the JSONL file it reads, even with --force', async () => {
    const { cli, bytes } = await workspace();
    const before = bytes('hitl-9.jsonl');
    for (const args of [
      ['report', 'hitl-9.jsonl', '--html', 'hitl-9.jsonl', '--force'],
      ['report', '--store', 'hitl-9.jsonl', '--html', 'hitl-9.jsonl', '--force'],
    ]) {
      const result = await cli(args);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(
        /refusing to write the report over hitl-9\.jsonl: it is .*hitl-9\.jsonl, which this report reads/,
      );
    }
    expect(bytes('hitl-9.jsonl').equals(before)).toBe(true);
  });

  it('REV-2 a report that fails while writing leaves no file and no partial file, and an existing file as it was', async () => {
    const { cwd, cli } = await workspace();
    failure.next = true;
    const failed = await cli(['report', 's', '--store', 'agentlog.db', '--html', 'out/page.html']);
    expect(failed.code).toBe(2);
    expect(failed.stderr).toBe(
      'agentlog report: cannot write the report to out/page.html: ENOSPC: no space left on device, write\n',
    );
    expect(existsSync(join(cwd, 'out/page.html'))).toBe(false);
    expect(readdirSync(join(cwd, 'out'))).toEqual([]);
    writeFileSync(join(cwd, 'kept.html'), 'the previous page');
    failure.next = true;
    const forced = await cli([
      'report',
      's',
      '--store',
      'agentlog.db',
      '--html',
      'kept.html',
      '--force',
    ]);
    expect(forced.code).toBe(2);
    expect(readFileSync(join(cwd, 'kept.html'), 'utf8')).toBe('the previous page');
    expect(readdirSync(cwd).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});
