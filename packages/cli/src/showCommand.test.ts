import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, approvalRequired, tool, ToolFeedback } from '@agentlog/core';
import {
  counterIds,
  fixedClock,
  scriptedModel,
  textResponse,
  toolCallResponse,
} from '@agentlog/core/testing';
import { createSqliteEventStore } from '@agentlog/store';
import { runCliIn } from './test/runCliIn.js';

const sessions = resolve(import.meta.dirname, '../../../fixtures/sessions');
const dir = mkdtempSync(join(tmpdir(), 'agentlog-cli-show-'));
const db = 'show.db';
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function cli(args: string[]) {
  return runCliIn(args, { cwd: dir });
}

/** A release-notes stream: a Markdown draft, refused by bo, then approved by ana and written. */
beforeAll(async () => {
  const store = createSqliteEventStore({ path: join(dir, db) });
  const writeChangelog = tool({
    name: 'write_changelog',
    description: 'Writes RELEASE_NOTES.md.',
    parameters: z.object({ version: z.string(), markdown: z.string() }),
    execute: () => 'wrote RELEASE_NOTES.md\n3 lines',
  });
  const agent = await Agent.builder()
    .llm(
      scriptedModel([
        toolCallResponse([
          {
            name: 'write_changelog',
            args: { version: '0.34.0', markdown: '# 0.34.0\n\n- Perl "support"' },
            id: 'call_1',
          },
        ]),
        textResponse('Done.'),
      ]),
    )
    .tools([approvalRequired(writeChangelog)])
    .store(store)
    .streamId('release-0.34')
    .clock(fixedClock('2026-11-30T09:00:00.000Z'))
    .ids(counterIds('rel'))
    .build();
  await agent.query('Draft the release notes for 0.34.0.');
  await agent
    .context()
    .feedbackReceived({ id: 'call_1', name: 'write_changelog' }, ToolFeedback.approved(), {
      by: 'ana',
      note: 'looks good',
    });
  await agent.run();
  store.close();
});

describe('agentlog show', () => {
  it('prints the full arguments (Markdown as text), the status and the decision history', async () => {
    const { code, stdout, stderr } = await cli(['show', 'release-0.34', 'call_1', '--store', db]);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    expect(stdout).toBe(
      [
        'write_changelog (call_1) in release-0.34 (show.db)',
        'status: completed (2 invocations)',
        '',
        'arguments:',
        '  {',
        '    "markdown": "<3 lines, below>",',
        '    "version": "0.34.0"',
        '  }',
        '',
        '  markdown (3 lines):',
        '    # 0.34.0',
        '',
        '    - Perl "support"',
        '',
        'history:',
        '  #5   2026-11-30 09:00:05  → started',
        '  #6   2026-11-30 09:00:06  ⏸ feedback requested',
        '  #8   2026-11-30 09:00:08  ✓ approved by ana',
        '                            note: looks good',
        '  #10  2026-11-30 09:00:10  → started',
        '  #11  2026-11-30 09:00:11  · decision read by the run',
        '  #12  2026-11-30 09:00:12  ✓ output: wrote RELEASE_NOTES.md',
        '                            3 lines',
        '',
      ].join('\n'),
    );
  });

  it('HITL-10 shows a refusal with its author and note, and a call that still waits for a decision', async () => {
    const file = join(sessions, 'HITL-8-refusal-then-revision.jsonl');
    const refused = await cli(['show', file, 'g1']);
    expect(refused.code).toBe(0);
    expect(refused.stdout).toContain('status: completed (2 invocations)');
    expect(refused.stdout).toMatch(/#9 +\S+ \S+ {2}✗ refused by ana\n +note: too high\n/);
    expect(refused.stdout).toMatch(/#13 +\S+ \S+ {2}· decision read by the run\n/);
    expect(refused.stdout).toMatch(/#14 +\S+ \S+ {2}✓ output: This tool call was refused\n/);
    const waiting = await cli(['show', 'HITL-8-refusal-then-revision', 'g2', '--store', file]);
    expect(waiting.stdout).toContain('status: waiting for a decision (1 invocation)');
    expect(waiting.stdout).toContain('arguments:\n  {\n    "number": 13\n  }\n');
  });

  it('HITL-11 a call that holds a decision waits for a run, not for a person', async () => {
    const held = await cli(['show', join(sessions, 'HITL-5-shadowed-approval.jsonl'), 'g1']);
    expect(held.stdout).toMatch(
      /^status: approved by ana, waiting for a run to resume it \(1 invocation\); shadowed \(HITL-5\)/m,
    );
  });

  it("STOP-2 a stop tool's result is shown whole, as indented JSON", async () => {
    const { code, stdout } = await runCliIn([
      'show',
      join(sessions, 'STOP-2-stop-with-schema.jsonl'),
      's1',
    ]);
    expect(code).toBe(0);
    expect(stdout).toContain(
      [
        '  #6   2026-11-30 09:00:06  ■ stop with:',
        '                              {',
        '                                "highlights": [',
        '                                  "perl"',
        '                                ],',
        '                                "version": "0.34.0"',
        '                              }',
      ].join('\n'),
    );
  });

  it('an unknown stream or call, a missing argument: one line, exit 2', async () => {
    expect(await cli(['show', 'nope', 'call_1', '--store', db])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'agentlog show: no stream nope in show.db\n',
    });
    expect(await cli(['show', 'release-0.34', 'x9', '--store', db])).toEqual({
      code: 2,
      stdout: '',
      stderr: 'agentlog show: stream release-0.34 has no tool call x9\n',
    });
    expect(await cli(['show', 'release-0.34', '--store', db])).toMatchObject({
      code: 2,
      stderr: 'agentlog show: missing <toolCallId>; see agentlog show --help\n',
    });
  });
});
