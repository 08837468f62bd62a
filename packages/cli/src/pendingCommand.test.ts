import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { EventStore } from '@agentlog/core';
import { createPostgresEventStore } from '@agentlog/store/postgres';
import { createSqliteEventStore } from '@agentlog/store';
import { fixtureEvents, fixtureSessions } from '../../replay/src/test/fixtureSessions.js';
import { runCliIn } from './test/runCliIn.js';

const sessions = fixtureSessions;
const dir = mkdtempSync(join(tmpdir(), 'agentlog-cli-pending-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function cli(args: string[]) {
  return runCliIn(args, { cwd: dir });
}

/** Copies a recorded fixture session into `store` as stream `streamId`. */
async function importSession(store: EventStore, file: string, streamId: string): Promise<void> {
  await store.appendToStream(streamId, await fixtureEvents(file), {
    expectedRevision: 'noStream',
  });
}

describe('agentlog pending', () => {
  it('lists every waiting call of every stream: stream, call id, tool, arguments, marks', async () => {
    const db = join(dir, 'pending.db');
    const store = createSqliteEventStore({ path: db });
    await importSession(store, 'HITL-9-refund-with-payload.jsonl', 'refund-done');
    await importSession(store, 'HITL-2-two-approvals-one-batch.jsonl', 'two-approvals');
    await importSession(store, 'HITL-4-resume-after-approval.jsonl', 'resumed');
    store.close();
    const { code, stdout, stderr } = await cli(['pending', '--store', db]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toBe(
      [
        'two-approvals  g1  guess_a_number  {"number":1}  shadowed (HITL-5)',
        'two-approvals  g2  guess_a_number  {"number":2}  shadowed (HITL-5)',
        '',
      ].join('\n'),
    );
  });

  it('HITL-11 reads a JSONL file as one stream, lists no call that holds a decision, and says when nothing waits', async () => {
    const shadowed = await cli([
      'pending',
      '--store',
      join(sessions, 'HITL-2-two-approvals-one-batch.jsonl'),
    ]);
    expect(shadowed.stdout).toBe(
      'HITL-2-two-approvals-one-batch  g1  guess_a_number  {"number":1}  shadowed (HITL-5)\n' +
        'HITL-2-two-approvals-one-batch  g2  guess_a_number  {"number":2}  shadowed (HITL-5)\n',
    );
    // g1 of HITL-5 waits, but holds ana's approval already: it waits for a run, not a person.
    const decided = await cli([
      'pending',
      '--store',
      join(sessions, 'HITL-5-shadowed-approval.jsonl'),
    ]);
    expect(decided.stdout).toBe('no tool call waits for a decision\n');
    const none = await cli(['pending', '--store', join(sessions, 'STOP-2-stop-with-schema.jsonl')]);
    expect(none).toEqual({ code: 0, stdout: 'no tool call waits for a decision\n', stderr: '' });
  });

  it('HITL-11 its help and summary say it lists only the calls that still need a decision', async () => {
    const help = await cli(['pending', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain("Lists every tool call that still needs a person's decision");
    expect(help.stdout).toMatch(/already holds a decision .* is not listed/s);
    const overview = await cli(['--help']);
    expect(overview.stdout).toMatch(
      /^ {2}pending +list the tool calls that still need a decision$/m,
    );
  });
});

const postgresUrl = process.env['AGENTLOG_POSTGRES_URL'] ?? '';
describe.skipIf(postgresUrl === '')(
  'agentlog pending and approve on PostgreSQL (skipped without AGENTLOG_POSTGRES_URL)',
  () => {
    it('lists a waiting call of a PostgreSQL stream and records an approval on it', async () => {
      const store = createPostgresEventStore({ connectionString: postgresUrl });
      const streamId = `cli-${randomBytes(6).toString('hex')}`;
      try {
        await importSession(store, 'HITL-2-two-approvals-one-batch.jsonl', streamId);
        const pending = await cli(['pending', '--store', postgresUrl]);
        expect(pending.code).toBe(0);
        expect(pending.stdout).toMatch(new RegExp(`^${streamId}\\s+g1\\s+guess_a_number`, 'm'));
        const approved = await cli([
          'approve',
          streamId,
          'g2',
          '--by',
          'ana',
          '--store',
          postgresUrl,
        ]);
        expect(approved.code).toBe(0);
        const [last] = await store.readStream(streamId, { direction: 'backwards', maxCount: 1 });
        expect(last).toMatchObject({
          type: 'FeedbackReceived',
          data: { toolCallId: 'g2', feedback: { kind: 'approved' }, by: 'ana' },
        });
      } finally {
        await store.close();
      }
    });
  },
);
