import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqliteEventStore } from '@agentlog/store';
import { readJsonl } from '@agentlog/store/jsonl';
import { runCliIn } from './test/runCliIn.js';

const fixture = resolve(
  import.meta.dirname,
  '../../../fixtures/sessions/HITL-4-resume-after-approval.jsonl',
);
const dir = mkdtempSync(join(tmpdir(), 'agentlog-cli-damaged-'));
const db = join(dir, 'damaged.db');
const jsonl = join(dir, 'damaged.jsonl');
const damagedRevision = 5;
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const hash = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');
const cli = (args: string[]) => runCliIn(args, { cwd: dir });

/** The fixture's stream in a SQLite file and a JSONL file, each with one damaged event in the middle. */
beforeAll(async () => {
  const { events } = await readJsonl(fixture);
  const store = createSqliteEventStore({ path: db });
  await store.appendToStream(
    'hitl-4',
    events.map(({ type, data, metadata: { eventId, at, schemaVersion } }) => ({
      type,
      data,
      metadata: { eventId, at, schemaVersion },
    })),
    { expectedRevision: 'noStream' },
  );
  store.close();
  const raw = new Database(db);
  raw
    .prepare('UPDATE agentlog_events SET event = \'{"type": oops\' WHERE revision = ?')
    .run(damagedRevision);
  raw.close();
  const lines = readFileSync(fixture, 'utf8').split('\n');
  lines[damagedRevision] = '{"type": oops';
  writeFileSync(jsonl, lines.join('\n'));
});

describe('a damaged row in the middle of a stream: inspect and report name it and stop, nothing is rewritten', () => {
  it('inspect on SQLite: exit 2, the error names the stream and the revision, the file is unchanged', async () => {
    const before = hash(db);
    const { code, stdout, stderr } = await cli(['inspect', 'hitl-4', '--store', 'damaged.db']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(
      new RegExp(
        `^agentlog inspect: event \\S+ at revision ${damagedRevision} is invalid: stream hitl-4 of SQLite store \\S*damaged\\.db: its stored event: it is not JSON`,
      ),
    );
    expect(hash(db)).toBe(before);
    expect(existsSync(`${db}-wal`)).toBe(false);
  });

  it('report --html on SQLite: exit 2, the same error, no page written, the file is unchanged', async () => {
    const before = hash(db);
    const { code, stderr } = await cli([
      'report',
      'hitl-4',
      '--store',
      'damaged.db',
      '--html',
      'out.html',
    ]);
    expect(code).toBe(2);
    expect(stderr).toMatch(
      new RegExp(
        `^agentlog report: event \\S+ at revision ${damagedRevision} is invalid: stream hitl-4 of SQLite store \\S*damaged\\.db`,
      ),
    );
    expect(existsSync(join(dir, 'out.html'))).toBe(false);
    expect(hash(db)).toBe(before);
  });

  it('inspect and report on a JSONL file: exit 2, the error names the file and the line, the file is unchanged', async () => {
    const before = hash(jsonl);
    const inspect = await cli(['inspect', 'damaged.jsonl']);
    const report = await cli(['report', 'damaged.jsonl', '--html', 'out.html']);
    for (const [command, run] of [
      ['inspect', inspect],
      ['report', report],
    ] as const) {
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(
        new RegExp(`^agentlog ${command}: damaged\\.jsonl, line ${damagedRevision + 1}\\b`),
      );
    }
    expect(existsSync(join(dir, 'out.html'))).toBe(false);
    expect(hash(jsonl)).toBe(before);
  });
});
