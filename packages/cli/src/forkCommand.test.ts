import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJsonl, createSqliteEventStore } from '@agentlog/store';
import { runCliIn } from './test/runCliIn.js';

const dir = mkdtempSync(join(tmpdir(), 'agentlog-cli-fork-'));
const db = join(dir, 'fork.db');
const session = resolve(
  import.meta.dirname,
  '../../../fixtures/sessions/HITL-4-resume-after-approval.jsonl',
);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

beforeAll(async () => {
  const store = createSqliteEventStore({ path: db });
  const { events } = await readJsonl(session);
  await store.appendToStream(
    'hitl-4',
    events.map(({ type, data, metadata: { revision: _revision, ...metadata } }) => ({
      type,
      data,
      metadata,
    })),
    { expectedRevision: 'noStream' },
  );
  store.close();
});

async function cli(args: string[]) {
  return runCliIn(args, { cwd: dir });
}

describe('agentlog fork', () => {
  it('RES-2 forks a stream at a revision and prints the new stream last revision', async () => {
    const forked = await cli(['fork', 'hitl-4', '--at', '5', '--to', 'hitl-4-b', '--store', db]);
    expect(forked).toEqual({
      code: 0,
      stdout: 'forked hitl-4 at revision 5 into hitl-4-b: its last revision is 6\n',
      stderr: '',
    });
    const store = createSqliteEventStore({ path: db });
    const copy = await store.readStream('hitl-4-b');
    store.close();
    expect(copy.map((event) => event.type).slice(0, 2)).toEqual(['StreamForked', 'RunStarted']);
    expect(copy[0]?.data).toEqual({ fromStream: 'hitl-4', atRevision: 5 });
    const inspected = await cli(['inspect', 'hitl-4-b', '--store', db]);
    expect(inspected.stdout).toContain('#0  ⑂ forked from hitl-4 at revision 5');
  });

  it('an existing target, a revision out of range or not a number, a JSONL store: one line, exit 2', async () => {
    const cases: [string[], string][] = [
      [
        ['fork', 'hitl-4', '--at', '2', '--to', 'hitl-4'],
        'cannot fork into hitl-4: that stream already exists',
      ],
      [
        ['fork', 'hitl-4', '--at', '99', '--to', 'x'],
        'cannot fork hitl-4 at revision 99: it has revisions 0 to 16',
      ],
      [
        ['fork', 'hitl-4', '--at', 'five', '--to', 'x'],
        '--at needs a revision (0, 1, …); see agentlog fork --help',
      ],
      [['fork', 'hitl-4', '--at', '1'], 'missing --to <stream>; see agentlog fork --help'],
      [['fork', 'nope', '--at', '1', '--to', 'y'], 'cannot fork nope: no such stream'],
    ];
    for (const [args, message] of cases) {
      expect(await cli([...args, '--store', db]), args.join(' ')).toEqual({
        code: 2,
        stdout: '',
        stderr: `agentlog fork: ${message}\n`,
      });
    }
    const jsonl = await cli(['fork', 'x', '--at', '1', '--to', 'y', '--store', session]);
    expect(jsonl.code).toBe(2);
    expect(jsonl.stderr).toMatch(/JSONL file, which agentlog only reads\n$/);
  });
});
