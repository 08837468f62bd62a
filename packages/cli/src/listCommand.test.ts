import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { EventStore, NewStreamEvent } from '@agentlog/core';
import { createSqliteEventStore } from '@agentlog/store';
import { fixtureEvents, fixtureSessions } from '../../replay/src/test/fixtureSessions.js';
import { runCliIn } from './test/runCliIn.js';

const sessions = fixtureSessions;
const dir = mkdtempSync(join(tmpdir(), 'agentlog-cli-list-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function cli(args: string[]) {
  return runCliIn(args, { cwd: dir });
}

async function append(store: EventStore, streamId: string, events: NewStreamEvent[]) {
  await store.appendToStream(streamId, events, { expectedRevision: 'noStream' });
}

describe('agentlog list', () => {
  it('lists every stream: status with stop reason and cause, last event, event count, calls that need a decision', async () => {
    const db = join(dir, 'list.db');
    const store = createSqliteEventStore({ path: db });
    await append(
      store,
      'two-approvals',
      await fixtureEvents('HITL-2-two-approvals-one-batch.jsonl'),
    );
    await append(store, 'shadowed', await fixtureEvents('HITL-5-shadowed-approval.jsonl'));
    const [runStarted] = await fixtureEvents('HITL-5-shadowed-approval.jsonl');
    await append(store, 'in-flight', runStarted === undefined ? [] : [runStarted]);
    store.close();
    const { code, stdout, stderr } = await cli(['list', '--store', db]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toBe(
      [
        // SQLite keeps a work index: the work column says what a worker may do (SPEC WRK-2);
        // these streams were imported without index entries, so none needs work.
        'stream         status                                        last event           events  waiting                               work',
        'two-approvals  stopped: feedbackRequired (feedbackRequired)  2026-11-30 09:00:14  15      g1 guess_a_number, g2 guess_a_number  -',
        'shadowed       stopped: noNewMessages (assistantAnswered)    2026-11-30 09:00:16  17      -                                     -',
        'in-flight      running                                       2026-11-30 09:00:00  1       -                                     -',
        '',
      ].join('\n'),
    );
  });

  it('HITL-11 a run whose approval was refused, or approved and not resumed, does not wait for a decision', async () => {
    const db = join(dir, 'decided.db');
    const store = createSqliteEventStore({ path: db });
    // Up to the decision (revision 9), with no run after it: the run ended there.
    const upToDecision = (events: NewStreamEvent[]) => events.slice(0, 10);
    await append(
      store,
      'rejected',
      upToDecision(await fixtureEvents('HITL-8-refusal-then-revision.jsonl')),
    );
    await append(
      store,
      'approved',
      upToDecision(await fixtureEvents('HITL-4-resume-after-approval.jsonl')),
    );
    store.close();
    const { code, stdout } = await cli(['list', '--store', db]);
    expect(code).toBe(0);
    expect(stdout).toMatch(
      /^rejected +stopped: refused by ana \(feedbackRequired\) +\S+ \S+ +10 +- +-$/m,
    );
    expect(stdout).toMatch(
      /^approved +stopped: approved by ana, not resumed yet \(feedbackRequired\) +\S+ \S+ +10 +- +-$/m,
    );
    expect(stdout).not.toMatch(/stopped: feedbackRequired/);
  });

  it('a stream that cannot be folded is reported on stderr with exit 2, the others are still listed', async () => {
    const db = join(dir, 'broken.db');
    const store = createSqliteEventStore({ path: db });
    await append(
      store,
      'broken',
      await fixtureEvents('HITL-4-resume-after-approval.jsonl', (json) =>
        json.replace('"toolCallId":"g1","feedback"', '"toolCallId":"nope","feedback"'),
      ),
    );
    await append(store, 'fine', await fixtureEvents('HITL-5-shadowed-approval.jsonl'));
    store.close();
    const { code, stdout, stderr } = await cli(['list', '--store', db]);
    expect(code).toBe(2);
    expect(stderr).toMatch(
      /^agentlog list: stream broken( of SQLite store [^:]+)?: event FeedbackReceived at revision \d+ is invalid: .*\n$/,
    );
    expect(stdout).toMatch(/^fine +stopped: noNewMessages \(assistantAnswered\) +/m);
    expect(stdout).not.toContain('broken');
  });

  it('reads a JSONL file as one stream, and says when the store holds no stream', async () => {
    const jsonl = await cli([
      'list',
      '--store',
      join(sessions, 'HITL-9-refund-with-payload.jsonl'),
    ]);
    expect(jsonl.code).toBe(0);
    expect(jsonl.stdout).toMatch(/^HITL-9-refund-with-payload +stopped: /m);
    const db = join(dir, 'empty.db');
    createSqliteEventStore({ path: db }).close();
    expect(await cli(['list', '--store', db])).toEqual({
      code: 0,
      stdout: `no stream in ${db}\n`,
      stderr: '',
    });
  });
});
