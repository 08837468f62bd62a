import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  Agent,
  approvalRequired,
  createInMemoryEventStore,
  foldStream,
  tool,
  ToolFeedback,
  ToolOutput,
  type CompletionResponse,
} from '@agentlog/core';
import { fixedClock, scriptedModel } from '@agentlog/core/testing';
import { z } from 'zod';
import type { FoldedStream } from '@agentlog/core/read-models';
import { auditModel } from './auditModel.js';
import { argsView, isDraft, revisionDiff } from './drafts.js';
import { PayloadShelf } from './payloads.js';
import { escapeHtml } from './html.js';
import { fixtureSessions, loadFixture } from '../../../replay/src/test/fixtureSessions.js';
import { textOf } from '../../../cli/src/test/textOf.js';
import { renderReport, reportCss } from './renderReport.js';
import { decisionsSection, formatDuration, outcomeSection, timelineSection } from './sections.js';

/** The non-ASCII characters the page itself uses (marks and punctuation). */
const pageGlyphs = '✓✗→■▶⚠·–—…';

const draftV1 = '# Release 1.0\n\n- faster fold\n- new CLI\n- **breaking**: drop Node 18';
const draftV2 = '# Release 1.0\n\n- faster fold\n- new CLI report\n\nNo breaking change.';
const usage = (prompt: number, completion: number) => ({
  promptTokens: prompt,
  completionTokens: completion,
  totalTokens: prompt + completion,
});
const answer = (
  calls: Array<{ id: string; name: string; args: object }>,
  tokens: [number, number],
): CompletionResponse => ({
  toolCalls: calls.map(({ id, name, args }) => ({ id, name, args: JSON.stringify(args) })),
  model: 'gpt-test-1',
  usage: usage(...tokens),
});

/**
 * A release-notes run: a Markdown draft refused by ana, a revision approved by bo, then a `publish`
 * tool stops the run with a payload. The clock ticks 1 s per event.
 */
async function releaseRun(): Promise<FoldedStream> {
  const store = createInMemoryEventStore();
  const writeChangelog = approvalRequired(
    tool({
      name: 'write_changelog',
      description: 'Writes the changelog.',
      parameters: z.object({ text: z.string(), version: z.string() }),
      execute: () => 'written',
    }),
  );
  const publish = tool({
    name: 'publish',
    description: 'Publishes.',
    parameters: z.object({ version: z.string() }),
    execute: ({ version }) => ToolOutput.stop({ published: version, channel: 'stable-7q' }),
  });
  const agent = await Agent.builder()
    .llm(
      scriptedModel([
        answer(
          [{ id: 'w1', name: 'write_changelog', args: { text: draftV1, version: '1.0' } }],
          [100, 20],
        ),
        answer(
          [{ id: 'w2', name: 'write_changelog', args: { text: draftV2, version: '1.0' } }],
          [150, 25],
        ),
        answer([{ id: 'p1', name: 'publish', args: { version: '1.0' } }], [200, 5]),
      ]),
    )
    .tools([writeChangelog, publish])
    .store(store)
    .clock(fixedClock('2026-12-01T10:00:00.000Z'))
    .streamId('release')
    .build();
  await agent.query('Write the release notes');
  await agent
    .context()
    .feedbackReceived({ id: 'w1', name: 'write_changelog' }, ToolFeedback.refused(), {
      by: 'ana',
      note: 'no breaking change in 1.0',
    });
  await agent.run();
  await agent
    .context()
    .feedbackReceived({ id: 'w2', name: 'write_changelog' }, ToolFeedback.approved(), {
      by: 'bo',
    });
  await agent.run();
  const { events, state } = foldStream(await store.readStream('release'));
  return { streamId: 'release', source: 'memory', events, state };
}

const meta = (revision: number, second: number) => ({
  eventId: `e${revision}`,
  at: `2026-12-01T10:00:${String(second).padStart(2, '0')}.000Z`,
  schemaVersion: 3,
  revision,
});

/** A stream where one call failed and another was left ambiguous by a crash, written by hand. */
function crashedRun(): FoldedStream {
  const a1 = { id: 'a1', name: 'charge_card', args: '{"amount":5}' };
  const f1 = { id: 'f1', name: 'lookup', args: '{"q":"x"}' };
  const stored = [
    { type: 'RunStarted', data: { mode: 'query', input: 'Charge' } },
    { type: 'UserMessageQueued', data: { text: 'Charge' } },
    { type: 'UserMessageAdded', data: { text: 'Charge' } },
    {
      type: 'ModelResponded',
      data: { requestFingerprint: 'f', response: { toolCalls: [a1, f1] } },
    },
    {
      type: 'AssistantMessageAdded',
      data: { message: { role: 'assistant', toolCalls: [a1, f1] } },
    },
    { type: 'ToolCallStarted', data: { toolCall: a1, idempotencyKey: 's:a1' } },
    { type: 'ToolCallStarted', data: { toolCall: f1, idempotencyKey: 's:f1' } },
    {
      type: 'ToolCallFailed',
      data: { toolCallId: 'f1', error: 'lookup: timeout', failureCount: 1 },
    },
    { type: 'RunStarted', data: { mode: 'run' } },
    { type: 'FeedbackRequested', data: { toolCall: a1, ambiguous: true } },
    {
      type: 'AgentStopped',
      data: { reason: { kind: 'feedbackRequired', toolCall: a1 }, cause: 'feedbackRequired' },
    },
  ].map((event, revision) => ({ ...event, metadata: meta(revision, revision * 2) }));
  const { events, state } = foldStream(stored);
  return { streamId: 'crash', source: 'hand', events, state };
}

describe('the audit model', () => {
  it('gives honest statuses: refused, approved, completed, failed, ambiguous', async () => {
    const release = auditModel(await releaseRun());
    expect(release.calls.map((call) => [call.toolCall.id, call.status])).toEqual([
      ['w1', 'refused'],
      ['w2', 'approved'],
      ['p1', 'completed'],
    ]);
    const w1 = release.calls[0]!;
    expect(w1.outcomes).toMatchObject([{ kind: 'output', output: { kind: 'text' } }]);
    expect(release.calls[1]!.revises?.toolCall.id).toBe('w1');
    const crash = auditModel(crashedRun());
    expect(crash.calls.map((call) => [call.toolCall.id, call.status])).toEqual([
      ['a1', 'ambiguous'],
      ['f1', 'failed'],
    ]);
  });

  it('splits the run into model steps with duration, model and tokens, and sums them', async () => {
    const model = auditModel(await releaseRun());
    expect(model.steps.map((step) => [step.model, step.usage?.totalTokens])).toEqual([
      ['gpt-test-1', 120],
      ['gpt-test-1', 175],
      ['gpt-test-1', 205],
    ]);
    expect(model.steps.every((step) => (step.durationMs ?? 0) >= 1000)).toBe(true);
    // Steps 1 and 2 stop for a decision: the time from the stop to the decision is the wait.
    expect(model.steps.map((step) => step.stoppedMs)).toEqual([1000, 1000, undefined]);
    expect(model.totals).toMatchObject({
      steps: 3,
      usage: { promptTokens: 450, completionTokens: 50, totalTokens: 500 },
    });
    const html = timelineSection(model).toString();
    expect(textOf(html)).toContain('Totals: 3 step(s)');
    expect(textOf(html)).toContain('500 tokens (450 prompt + 50 completion)');
    expect(textOf(html)).toMatch(
      /Step 1 · [\d.]+ s \(1.00 s of it stopped\) · gpt-test-1 · 120 tokens/,
    );
  });
});

describe('the sections', () => {
  it('the outcome names the stop, its cause and a summary of the payload', async () => {
    const loaded = await releaseRun();
    const text = textOf(outcomeSection(loaded.state, loaded.events, new PayloadShelf()).toString());
    expect(text).toContain('Stopped: finished: a tool handed over the result');
    expect(text).toContain('The tool publish p1 ended the run.');
    expect(text).toContain('Result: {"published":"1.0","channel":"stable-7q"}');
  });

  it('HITL-11 the outcome of a run whose approval was refused does not say it waits for a decision', async () => {
    const full = await loadFixture('HITL-8-refusal-then-revision.jsonl', 'HITL-8');
    // Up to the refusal (revision 9): the run ended there, nothing resumed it.
    const refused = { ...full, ...foldStream(full.events.slice(0, 10)) };
    const text = textOf(renderReport(refused));
    expect(text).toContain('guess_a_number g1 was ✗ refused by ana ; the run ended there.');
    expect(text).toContain('Nothing waits for a decision.');
    expect(text).not.toContain('Waits for a decision');
    // A refused call never runs: it is not marked as one that has not run yet.
    expect(text).toContain('guess_a_number g1 ✗ refused 1 invocation(s)');
    expect(text).not.toContain('not run yet');
    const approved = await loadFixture('HITL-4-resume-after-approval.jsonl', 'HITL-4');
    const notResumed = { ...approved, ...foldStream(approved.events.slice(0, 10)) };
    expect(textOf(renderReport(notResumed))).toContain(
      'guess_a_number g1 was ✓ approved by ana ; it waits for a run to resume it, not for a decision.',
    );
    const waiting = { ...full, ...foldStream(full.events.slice(0, 9)) };
    expect(textOf(renderReport(waiting))).toContain('Waits for a decision on guess_a_number g1 .');
  });

  it('the decisions table: who, when, which call, arguments summarised and in full, decision, note', async () => {
    const loaded = await releaseRun();
    const html = decisionsSection(auditModel(loaded), new PayloadShelf()).toString();
    const rows = html.split('<tr class="decision-row">').slice(1).map(textOf);
    expect(rows).toHaveLength(2);
    const refusal = loaded.events.find((event) => event.type === 'FeedbackReceived')!;
    expect(rows[0]).toContain(
      `ana ${refusal.metadata.at.slice(0, 10)} ${refusal.metadata.at.slice(11, 19)} UTC`,
    );
    expect(html).toContain(`<time datetime="${refusal.metadata.at}">`);
    expect(rows[0]).toContain('write_changelog w1');
    expect(rows[0]).toContain('text: <5 lines>, version: "1.0"');
    expect(rows[0]).toContain('✗ refused no breaking change in 1.0');
    expect(rows[1]).toMatch(/^bo .* write_changelog w2 .* ✓ approved$/);
    // The full draft is in a folded <details>, as text.
    expect(html).toMatch(/<details class="args">\s*<summary>/);
    expect(html).toContain('<pre class="text"># Release 1.0\n\n- faster fold');
  });

  it('shows drafts as text, not JSON with \\n escapes, and a revision as a line diff', () => {
    expect(isDraft('one line')).toBe(false);
    expect(isDraft('# Title')).toBe(true);
    expect(isDraft('a\nb')).toBe(true);
    const args = JSON.stringify({ text: draftV1, version: '1.0' });
    const view = argsView(args).toString();
    expect(view).toContain('<pre class="json">{\n  &quot;version&quot;: &quot;1.0&quot;\n}</pre>');
    expect(view).toContain(`<pre class="text">${draftV1}</pre>`);
    expect(view).not.toContain('\\n');
    const diff = revisionDiff(args, JSON.stringify({ text: draftV2, version: '1.0' })).toString();
    expect(diff).toContain('<span class="same">  # Release 1.0</span>');
    expect(diff).toContain('<span class="removed">- - new CLI</span>');
    expect(diff).toContain('<span class="removed">- - **breaking**: drop Node 18</span>');
    expect(diff).toContain('<span class="added">+ - new CLI report</span>');
    expect(diff).toContain('<span class="added">+ No breaking change.</span>');
    expect(diff).not.toContain('version');
  });

  it('the page shows each payload once, folded, and the refused call with its refusal text', async () => {
    const html = renderReport(await releaseRun());
    expect(html.match(/stable-7q/g)).toHaveLength(2); // the summary line and the folded JSON
    expect(html).toMatch(/<details class="payload">\s*<summary>Result: /);
    expect(html).not.toMatch(/<details class="payload" open/);
    expect(textOf(html)).toContain('Payload: the payload shown in the outcome');
    const w1 = textOf(html.slice(html.indexOf('id="call-w1"'), html.indexOf('id="call-w2"')));
    expect(w1).toContain('✗ refused');
    expect(w1).toMatch(/refusal text: This tool call was refused/);
    const w2 = html.slice(html.indexOf('id="call-w2"'), html.indexOf('id="call-p1"'));
    expect(textOf(w2)).toContain('Revision of the refused call write_changelog w1');
    expect(w2).toContain('<pre class="diff">');
  });

  it('marks waiting with CSS, not a glyph missing from DejaVu Sans, and keeps to known glyphs', async () => {
    const crash = renderReport(crashedRun());
    expect(textOf(crash)).toContain('? ambiguous');
    expect(textOf(crash)).toContain('✗ failed');
    expect(crash).toContain('<span class="pause" aria-hidden="true"></span>');
    for (const html of [crash, renderReport(await releaseRun())]) {
      expect(html).not.toContain('⏸');
      // Every non-ASCII character of the page (the fixtures' own texts are ASCII) is in DejaVu Sans.
      const glyphs = new Set(html.replace(/[\x00-\x7f]/g, ''));
      for (const glyph of glyphs) expect(pageGlyphs).toContain(glyph);
    }
  });

  it('shows a stop payload once (it used to be repeated four times): STOP-2', async () => {
    const html = renderReport(await loadFixture('STOP-2-stop-with-schema.jsonl', 'STOP-2'));
    expect(html.match(/<details class="payload"/g)).toHaveLength(1);
    expect(html.match(/&quot;highlights&quot;: \[\n    &quot;perl&quot;\n  \]/g)).toHaveLength(1);
    expect(textOf(html)).toContain('Result: {"highlights":["perl"],"version":"0.34.0"}');
    expect(textOf(html)).toContain('stop Payload: the payload shown in the outcome');
    // The stop tool's arguments are its payload: folded, not shown open a second time.
    expect(html).not.toMatch(/<details class="args" open/);
  });

  it('renders every fixture session: known glyphs only, each payload folded once, no script', async () => {
    const files = readdirSync(fixtureSessions).filter((name) => name.endsWith('.jsonl'));
    expect(files.length).toBeGreaterThan(10);
    for (const name of files) {
      const html = renderReport(await loadFixture(name));
      expect(html, name).not.toMatch(/<script|<link|<img|<iframe|src=|href=|@import|url\(/i);
      expect(html.indexOf('id="decisions"'), name).toBeLessThan(html.indexOf('id="tool-calls"'));
      for (const glyph of new Set(html.replace(/[\x00-\x7f]/g, '')))
        expect(pageGlyphs, `${name}: ${glyph}`).toContain(glyph);
      const folded = [...html.matchAll(/<details class="payload">[\s\S]*?<pre>([\s\S]*?)<\/pre>/g)];
      const bodies = folded.map((match) => match[1]);
      expect(new Set(bodies).size, name).toBe(bodies.length);
    }
  });

  it('says when a decision was recorded but the call has not run: HITL-5', async () => {
    const html = renderReport(await loadFixture('HITL-5-shadowed-approval.jsonl', 'HITL-5'));
    const g1 = textOf(html.slice(html.indexOf('id="call-g1"'), html.indexOf('id="call-e1"')));
    expect(g1).toContain('guess_a_number g1 ✓ approved (not run yet)');
    expect(g1).toContain(
      'decision recorded, not yet read by the tool · approval shadowed by a sibling (HITL-5)',
    );
  });

  it('uses only glyphs DejaVu Sans has (checked with fc-list where fontconfig is installed)', (context) => {
    const fcList = '/usr/bin/fc-list';
    const dejaVu =
      existsSync(fcList) && execFileSync(fcList, ['DejaVu Sans'], { encoding: 'utf8' }) !== '';
    context.skip(
      !dejaVu,
      `fontconfig or DejaVu Sans is absent: apt-get install fontconfig fonts-dejavu-core`,
    );
    const families = (glyph: string) =>
      execFileSync(fcList, [`:charset=${glyph.codePointAt(0)!.toString(16)}`, 'family'], {
        encoding: 'utf8',
      });
    for (const glyph of pageGlyphs) expect(families(glyph), glyph).toMatch(/DejaVu Sans/);
    // The pause sign is missing there: the page draws it in CSS instead.
    expect(families('⏸')).not.toMatch(/DejaVu Sans/);
  });

  it('puts its style sheet in the page unchanged: it has nothing the template escapes', () => {
    expect(escapeHtml(reportCss)).toBe(reportCss);
  });

  it('formats durations', () => {
    expect([850, 4000, 12_345, 245_000, 7_380_000].map(formatDuration)).toEqual([
      '850 ms',
      '4.00 s',
      '12.3 s',
      '4 min 05 s',
      '2 h 03 min',
    ]);
  });
});
