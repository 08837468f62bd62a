import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createSqliteEventStore } from '@agentlog/store';
import { fixtureSessions } from '../../replay/src/test/fixtureSessions.js';
import { runCliIn } from './test/runCliIn.js';
import { capsSection } from './capsSection.js';
import { workColumn } from '@agentlog/core/read-models';
import { unservedSection, workersTable } from './workersCommand.js';

const dir = mkdtempSync(join(tmpdir(), 'agentlog-cli-worker-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cli = (args: string[]) => runCliIn(args, { cwd: dir, env: { NO_COLOR: '1' } });

describe('agentlog worker and workers (SPEC WRK)', () => {
  it('WRK-5 agentlog worker needs --agents and a whole --concurrency', async () => {
    const missing = await cli(['worker', '--store', 'x.db']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('worker needs --agents <module>');
    const bad = await cli(['worker', '--store', 'x.db', '--agents', 'a.js', '--concurrency', '0']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--concurrency must be a whole number of 1 or more, not 0');
  });

  it('WRK-6 agentlog worker and agentlog workers refuse a store without a work index, naming it', async () => {
    const file = join(fixtureSessions, 'HITL-4-resume-after-approval.jsonl');
    writeFileSync(join(dir, 'agents.mjs'), 'export const agents = { a: () => undefined };\n');
    const worker = await cli(['worker', '--store', file, '--agents', 'agents.mjs']);
    expect(worker.code).toBe(2);
    expect(worker.stderr).toMatch(
      /HITL-4-resume-after-approval\.jsonl keeps no work index, so no worker can find work/,
    );
    const workers = await cli(['workers', '--store', file]);
    expect(workers.code).toBe(2);
    expect(workers.stderr).toMatch(
      /HITL-4-resume-after-approval\.jsonl keeps no work index, so it has no workers/,
    );
  });

  it('agentlog list shows no work column for a store without a work index', async () => {
    // A JSONL file keeps no work index (SQLite and PostgreSQL do, see listCommand.test.ts).
    const listed = await cli([
      'list',
      '--store',
      join(fixtureSessions, 'HITL-4-resume-after-approval.jsonl'),
    ]);
    expect(listed.code).toBe(0);
    expect(listed.stdout.split('\n')[0]?.trimEnd()).toMatch(/events +waiting$/);
  });

  it('WRK-7 WRK-9 agentlog workers prints id, host, pid, the agent names, the runs held and the last heartbeat', () => {
    expect(workersTable([])).toEqual(['no live worker']);
    expect(
      workersTable([
        {
          id: 'w1',
          host: 'build-3',
          pid: 41,
          runs: ['job-1', 'job-2'],
          agents: ['release-notes', 'translator'],
          heartbeatAt: '2026-01-01T10:00:05.000Z',
        },
        { id: 'w2', host: 'build-4', pid: 7, runs: [], agents: [] },
        // A worker that did not say its agent names is not taken to run none.
        { id: 'w3', host: 'build-5', pid: 9, runs: [] },
      ]),
    ).toEqual([
      'worker  host     pid  agents                     runs          heartbeat',
      'w1      build-3  41   release-notes, translator  job-1, job-2  2026-01-01 10:00:05',
      'w2      build-4  7    -                          -             -',
      'w3      build-5  9    unknown                    -             -',
    ]);
  });

  it('WRK-9 agentlog workers and agentlog list name a requested stream no live worker can take', async () => {
    // Needs unservedWork in the SQLite store (unservedWork.test.ts covers it on the in-memory one).
    const db = join(dir, 'unserved.db');
    createSqliteEventStore({ path: db }).close();
    const args = ['--store', db];
    expect(
      (await cli(['request', 'notes-fr', '--agent', 'translator', '--input', 'go', ...args])).code,
    ).toBe(0);
    expect(await cli(['workers', ...args])).toEqual({
      code: 0,
      stdout: [
        'no live worker',
        '',
        'needs a worker:',
        '  notes-fr  requested, no worker for agent translator',
        '',
      ].join('\n'),
      stderr: '',
    });
    const listed = await cli(['list', ...args]);
    expect(listed.stdout.split('\n')[1]).toMatch(
      /^notes-fr +pending +\S+ \S+ +1 +- +requested, no worker for agent translator$/,
    );
  });

  it('WRK-10 agentlog workers prints the caps per agent name the store holds', async () => {
    const db = join(dir, 'caps.db');
    const store = createSqliteEventStore({ path: db });
    try {
      await store.work.setCaps({ triage: 2, 'release-notes': 1, paused: 0 });
    } finally {
      store.close();
    }
    expect(await cli(['workers', '--store', db])).toEqual({
      code: 0,
      stdout: [
        'no live worker',
        '',
        'caps:',
        '  paused         no new run: its cap is 0',
        '  release-notes  at most 1 run at once, across all workers',
        '  triage         at most 2 runs at once, across all workers',
        '',
      ].join('\n'),
      stderr: '',
    });
    expect(capsSection({})).toEqual([]);
  });

  it('WRK-9 workers says when more streams need a worker than it lists', () => {
    const items = ['a', 'b', 'c'].map((streamId) => ({
      streamId,
      reason: 'requested' as const,
      agent: 'translator',
      since: '2026-12-01T09:00:00.000Z',
    }));
    expect(unservedSection(items, 2)).toEqual([
      '',
      'needs a worker:',
      '  a  requested, no worker for agent translator',
      '  b  requested, no worker for agent translator',
      '  \u2026 and more: agentlog list shows every stream that needs work',
    ]);
    expect(unservedSection([], 2)).toEqual([]);
  });

  it('WRK-2 agentlog list says which streams need work and which worker holds a live run', () => {
    expect(workColumn(undefined)).toBe('-');
    expect(workColumn({ status: 'requested', agent: 'writer' })).toBe('requested [writer]');
    expect(workColumn({ status: 'ready' })).toBe('ready');
    expect(
      workColumn({
        status: 'running',
        agent: 'writer',
        owner: 'w1',
        leaseUntil: '2026-01-01T10:05:00.000Z',
      }),
    ).toBe('running by w1 until 2026-01-01 10:05:00 [writer]');
    expect(workColumn({ status: 'idle', agent: 'writer' })).toBe('- [writer]');
    expect(workColumn({ status: 'waiting', agent: 'writer' })).toBe('waiting [writer]');
  });
});
