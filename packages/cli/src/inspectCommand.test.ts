import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
const dir = mkdtempSync(join(tmpdir(), 'agentlog-cli-inspect-'));
const db = join(dir, '.agentlog', 'agentlog.db');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function cli(
  args: string[],
  options: { isTTY?: boolean; env?: Record<string, string>; cwd?: string } = {},
) {
  return runCliIn(args, {
    cwd: options.cwd ?? dir,
    env: options.env ?? {},
    isTTY: options.isTTY ?? false,
  });
}

/** A release-notes session in the default SQLite file of `dir`: draft, approval by ana, write. */
beforeAll(async () => {
  const store = createSqliteEventStore({ path: db });
  const writeChangelog = tool({
    name: 'write_changelog',
    description: 'Writes RELEASE_NOTES.md.',
    parameters: z.object({ markdown: z.string() }),
    execute: () => 'wrote RELEASE_NOTES.md',
  });
  const agent = await Agent.builder()
    .llm(
      scriptedModel([
        toolCallResponse(
          [
            {
              name: 'write_changelog',
              args: { markdown: '# 0.34.0\n\n- Perl support' },
              id: 'call_1',
            },
          ],
          'Here is the draft.',
        ),
        textResponse('Done.'),
      ]),
    )
    .systemPrompt('You write release notes.')
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

describe('agentlog inspect', () => {
  it('prints one line per step of a stream of the default SQLite store', async () => {
    const { code, stdout, stderr } = await cli(['inspect', 'release-0.34']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toBe(
      [
        'release-0.34 (.agentlog/agentlog.db) · 17 events · stopped: noNewMessages (assistantAnswered)',
        '#0   ▶ query "Draft the release notes for 0.34.0."',
        '#1   system: "You write release notes."',
        '#3   user: "Draft the release notes for 0.34.0."',
        '#4   model: "Here is the draft." + 1 tool call(s)',
        '#6   → write_changelog <3 lines>',
        '#7   ⏸ waiting for approval: write_changelog (call_1)',
        '#8   ■ stopped: feedbackRequired (feedbackRequired) — write_changelog (call_1)',
        '#9   ✓ approved by ana at 09:00:09 — "looks good" · write_changelog (call_1)',
        '#10  ▶ run()',
        '#11  → write_changelog <3 lines>',
        '#12  · decision on write_changelog (call_1) read',
        '#13  ✓ write_changelog: wrote RELEASE_NOTES.md',
        '#14  model: "Done."',
        '#16  ■ stopped: noNewMessages (assistantAnswered)',
        "hidden: #2 a queued user text that entered the history at once; #5, #15 the assistant message, equal to the model's answer",
        '',
      ].join('\n'),
    );
  });

  it('reads a .jsonl file directly: failures, warnings, refusals, decisions with payloads', async () => {
    const tool3 = await cli(['inspect', join(sessions, 'TOOL-3-retry-limit.jsonl')]);
    expect(tool3.code).toBe(0);
    expect(tool3.stdout).toContain(
      '#6   ✗ flaky: GET https://example.test/a: 503 Service Unavailable (failure 1)',
    );
    expect(tool3.stdout).toContain(
      '■ stopped: toolCallsOverLimit (toolCallsOverLimit) — flaky (f3)',
    );
    const hitl5 = await cli(['inspect', join(sessions, 'HITL-5-shadowed-approval.jsonl')]);
    expect(hitl5.stdout).toMatch(
      /^#11  ⚠ tool call g1 \(guess_a_number\) waits for approval, but a sibling/m,
    );
    expect(hitl5.stdout).toContain('#12  ✓ approved by ana at 09:00:12 · guess_a_number (g1)');
    const hitl8 = await cli([
      'inspect',
      '--store',
      join(sessions, 'HITL-8-refusal-then-revision.jsonl'),
    ]);
    expect(hitl8.stdout).toMatch(/✗ refused by \w+ at \d\d:\d\d:\d\d/);
    const hitl9 = await cli(['inspect', join(sessions, 'HITL-9-refund-with-payload.jsonl')]);
    expect(hitl9.stdout).toContain(
      '✓ approved by lead at 09:00:08 · issue_refund (r1) with {"amount_cents":2500}',
    );
  });

  it('EVT-1 from the stream alone: a refusal as ✗ with author and note, each completion with its model and token usage', async () => {
    const store = createSqliteEventStore({ path: db });
    const deploy = tool({
      name: 'deploy',
      description: 'Deploys a service.',
      parameters: z.object({ service: z.string() }),
      execute: () => 'deployed',
    });
    const agent = await Agent.builder()
      .llm(
        scriptedModel([
          {
            ...toolCallResponse([{ name: 'deploy', args: { service: 'api' }, id: 'd1' }]),
            model: 'gpt-4o-mini-2024-07-18',
            usage: { promptTokens: 1200, completionTokens: 80, totalTokens: 1280 },
          },
          { ...textResponse('Not deployed.'), model: 'gpt-4o-mini-2024-07-18' },
        ]),
      )
      .tools([approvalRequired(deploy)])
      .store(store)
      .streamId('deploy-refused')
      .clock(fixedClock('2026-11-30T10:00:00.000Z'))
      .ids(counterIds('dep'))
      .build();
    await agent.query('Deploy the api');
    await agent.context().feedbackReceived({ id: 'd1', name: 'deploy' }, ToolFeedback.refused(), {
      by: 'bo',
      note: 'code freeze',
    });
    await agent.run();
    store.close();
    const { code, stdout } = await cli(['inspect', 'deploy-refused']);
    expect(code).toBe(0);
    expect(stdout).toContain(
      '#3   model: 1 tool call(s) (deploy) · gpt-4o-mini-2024-07-18 · 1280 tokens (1200 prompt + 80 completion)\n',
    );
    expect(stdout).toMatch(
      /^#\d+ +✗ refused by bo at 10:00:\d\d — "code freeze" · deploy \(d1\)$/m,
    );
    expect(stdout).toMatch(/^#\d+ +model: "Not deployed." · gpt-4o-mini-2024-07-18$/m);
  });

  it('HITL-8 a refused call answers with the refusal text: ✗ refused by its decider, never ✓', async () => {
    const { code, stdout } = await cli([
      'inspect',
      join(sessions, 'HITL-8-refusal-then-revision.jsonl'),
    ]);
    expect(code).toBe(0);
    expect(stdout).toContain('#14  ✗ guess_a_number refused by ana: This tool call was refused\n');
    expect(stdout).not.toMatch(/✓ guess_a_number/);
  });

  it("STOP-2 the tool's typed result is printed whole, as indented JSON under the stop", async () => {
    const { code, stdout } = await cli([
      'inspect',
      join(sessions, 'STOP-2-stop-with-schema.jsonl'),
    ]);
    expect(code).toBe(0);
    expect(stdout).toContain(
      [
        '#7  ■ stopped: requestedByTool (toolRequestedStop) — stop (s1), its result:',
        '      {',
        '        "highlights": [',
        '          "perl"',
        '        ],',
        '        "version": "0.34.0"',
        '      }',
        'hidden: ',
      ].join('\n'),
    );
  });

  it('names the revisions it hides in a final dim line, and prints none when it hides nothing', async () => {
    const hitl5 = await cli(['inspect', join(sessions, 'HITL-5-shadowed-approval.jsonl')]);
    expect(hitl5.stdout.trimEnd().split('\n').at(-1)).toBe(
      "hidden: #2 a queued user text that entered the history at once; #5, #15 the assistant message, equal to the model's answer",
    );
    const painted = await cli(['inspect', join(sessions, 'HITL-5-shadowed-approval.jsonl')], {
      isTTY: true,
    });
    expect(painted.stdout.trimEnd().split('\n').at(-1)).toMatch(/^\u001b\[2mhidden: #2 /);
    const short = join(dir, 'short.jsonl');
    const [first, second] = readFileSync(join(sessions, 'HITL-5-shadowed-approval.jsonl'), 'utf8')
      .split('\n')
      .filter((line) => line !== '');
    writeFileSync(short, `${first}\n${second}\n`);
    const nothingHidden = await cli(['inspect', short]);
    expect(nothingHidden).toMatchObject({ code: 0, stderr: '' });
    expect(nothingHidden.stdout.trimEnd().split('\n').at(-1)).toBe(
      '#1  system: "You guess numbers."',
    );
  });

  it('colours with ANSI codes only on a terminal without NO_COLOR', async () => {
    const ansi = '\u001b[';
    const file = join(sessions, 'HITL-4-resume-after-approval.jsonl');
    expect((await cli(['inspect', file], { isTTY: true })).stdout).toContain(ansi);
    expect(
      (await cli(['inspect', file], { isTTY: true, env: { NO_COLOR: '1' } })).stdout,
    ).not.toContain(ansi);
    expect((await cli(['inspect', file], { isTTY: false })).stdout).not.toContain(ansi);
  });

  it('an unknown stream, contradictory events, a missing database: one line, exit 2', async () => {
    const unknown = await cli(['inspect', 'nope']);
    expect(unknown).toEqual({
      code: 2,
      stdout: '',
      stderr: 'agentlog inspect: no stream nope in .agentlog/agentlog.db\n',
    });

    const contradictory = join(dir, 'contradictory.jsonl');
    const lines = readFileSync(join(sessions, 'HITL-4-resume-after-approval.jsonl'), 'utf8');
    writeFileSync(
      contradictory,
      lines.replace('"toolCallId":"g1","feedback"', '"toolCallId":"nope","feedback"'),
    );
    const invalid = await cli(['inspect', 'contradictory.jsonl']);
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toMatch(
      /^agentlog inspect: stream contradictory: event FeedbackReceived at revision \d+ is invalid: tool call nope cannot be decided on: the model never made it\n$/,
    );

    const empty = join(dir, 'empty');
    mkdirSync(empty);
    const missing = await cli(['inspect', 'release-0.34'], { cwd: empty });
    expect(missing).toEqual({
      code: 2,
      stdout: '',
      stderr: 'agentlog inspect: no agentlog database at .agentlog/agentlog.db\n',
    });
    expect(existsSync(join(empty, '.agentlog'))).toBe(false);
  });
});
