import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSqliteEventStore } from '@agentlog/store';
import { fixtureSessions } from '../../replay/src/test/fixtureSessions.js';
import { runCliIn } from './test/runCliIn.js';

const dir = mkdtempSync(join(tmpdir(), 'agentlog-cli-request-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cli = (args: string[], env: Record<string, string> = {}) =>
  runCliIn(args, { cwd: dir, env: { NO_COLOR: '1', ...env } });

/** A new SQLite store at `name` under the test folder; `prepare` may write into it first. */
async function newStore(
  name: string,
  prepare?: (store: ReturnType<typeof createSqliteEventStore>) => Promise<void>,
): Promise<string> {
  const db = join(dir, name);
  const store = createSqliteEventStore({ path: db });
  await prepare?.(store);
  store.close();
  return db;
}

/** The events of `streamId` as type and data. */
async function eventsOf(db: string, streamId: string) {
  const store = createSqliteEventStore({ path: db, readonly: true });
  try {
    return (await store.readStream(streamId)).map(({ type, data }) => ({ type, data }));
  } finally {
    store.close();
  }
}

describe('agentlog request (SPEC WRK-1)', () => {
  it('WRK-1 request records a run for a worker from the command line', async () => {
    const db = await newStore('requested.db', async (store) => {
      // A live worker that runs the agent (SPEC WRK-9).
      await store.work?.heartbeat({
        id: 'w1',
        host: 'build-3',
        pid: 41,
        runs: [],
        agents: ['release-notes'],
      });
    });
    const args = ['request', 'notes-1.4', '--agent', 'release-notes', '--store', db];
    const input = ['--input', 'Draft the release notes for 1.4'];
    expect(await cli([...args, ...input, '--by', 'ana'])).toEqual({
      code: 0,
      stdout:
        'requested a run of agent release-notes on stream notes-1.4; a worker that has the agent will take it\n',
      stderr: '',
    });
    expect(await eventsOf(db, 'notes-1.4')).toEqual([
      {
        type: 'RunRequested',
        data: { agent: 'release-notes', input: 'Draft the release notes for 1.4', by: 'ana' },
      },
    ]);
  });

  it('WRK-1 WRK-9 request says so when no live worker has the agent; --by defaults to AGENTLOG_USER', async () => {
    const db = await newStore('unserved.db');
    const requested = await cli(
      ['request', 'notes-fr', '--agent', 'translator', '--input', 'Translate', '--store', db],
      { AGENTLOG_USER: 'lea' },
    );
    expect(requested).toEqual({
      code: 0,
      stdout:
        'requested a run of agent translator on stream notes-fr; no live worker has agent translator yet: start one with agentlog worker --agents <module>\n',
      stderr: '',
    });
    expect(await eventsOf(db, 'notes-fr')).toEqual([
      { type: 'RunRequested', data: { agent: 'translator', input: 'Translate', by: 'lea' } },
    ]);
  });

  it('WRK-1 request is refused while another request waits, and writes nothing', async () => {
    const db = await newStore('twice.db');
    const args = ['request', 'notes-1.4', '--agent', 'release-notes', '--store', db];
    expect((await cli([...args, '--input', 'first'])).code).toBe(0);
    expect(await cli([...args, '--input', 'second'])).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'agentlog request: stream notes-1.4 already has a requested run that no worker started yet; nothing was written\n',
    });
    expect(await eventsOf(db, 'notes-1.4')).toEqual([
      { type: 'RunRequested', data: { agent: 'release-notes', input: 'first' } },
    ]);
  });

  it('WRK-1 request without --input is refused when the stream has nothing to run, and writes nothing', async () => {
    const db = await newStore('nothing.db');
    expect(await cli(['request', 'notes-1.4', '--agent', 'release-notes', '--store', db])).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'agentlog request: stream notes-1.4 has nothing to run, so a run without input is not requested; nothing was written\n',
    });
    expect(await eventsOf(db, 'notes-1.4')).toEqual([]);
  });

  it('WRK-1 request is refused without an agent name, and writes nothing', async () => {
    const db = await newStore('no-agent.db');
    expect(await cli(['request', 'notes-1.4', '--input', 'x', '--store', db])).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'agentlog request: request needs --agent <name>: the registered agent name a worker builds\n',
    });
    expect(
      await cli(['request', 'notes-1.4', '--agent', '', '--input', 'x', '--store', db]),
    ).toEqual({
      code: 2,
      stdout: '',
      stderr:
        'agentlog request: a run request for stream notes-1.4: it needs the registered agent name\n',
    });
    expect(await eventsOf(db, 'notes-1.4')).toEqual([]);
  });

  it('WRK-1 request refuses a JSONL file and a missing database', async () => {
    const file = join(fixtureSessions, 'HITL-4-resume-after-approval.jsonl');
    const jsonl = await cli(['request', 'x', '--agent', 'a', '--input', 'go', '--store', file]);
    expect(jsonl.code).toBe(2);
    expect(jsonl.stderr).toMatch(
      /^agentlog request: .*HITL-4-resume-after-approval\.jsonl is a JSONL file, which agentlog only reads\n$/,
    );
    const missing = await cli([
      'request',
      'x',
      '--agent',
      'a',
      '--input',
      'go',
      '--store',
      'no.db',
    ]);
    expect(missing).toEqual({
      code: 2,
      stdout: '',
      stderr: 'agentlog request: no agentlog database at no.db\n',
    });
  });

  it('REV-1 request shows an agent name and a stream id from the command line with visible escapes', async () => {
    const db = await newStore('hostile.db');
    const agent = 'notes\u202e\u001b[2J';
    const requested = await cli([
      'request',
      'job',
      '--agent',
      agent,
      '--input',
      'go',
      '--store',
      db,
    ]);
    expect(requested).toEqual({
      code: 0,
      stdout:
        'requested a run of agent notes\\u202e\\u001b[2J on stream job; no live worker has agent notes\\u202e\\u001b[2J yet: start one with agentlog worker --agents <module>\n',
      stderr: '',
    });
    const again = await cli(['request', 'job', '--agent', agent, '--input', 'go', '--store', db]);
    expect(again.stderr).not.toMatch(/[\u001b\u202e]/u);
  });
});
