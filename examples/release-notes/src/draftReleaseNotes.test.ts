import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  approvalRequired,
  createInMemoryEventStore,
  tool,
  type CompletionResponse,
} from '@agentlog/core';
import { counterIds, fixedClock, scriptedModel } from '@agentlog/core/testing';
import { describe, expect, it } from 'vitest';
import { draftReleaseNotes, NUDGE } from './draftReleaseNotes.js';
import { buildReleaseNotesAgent } from './releaseNotesAgent.js';
import { Verdict, scriptedReviewer } from './reviewer.js';
import { approvedDraft, scriptedNotes, scriptedReleaseSession } from './scriptedSession.js';
import { writeChangelogArgs } from './writeChangelog.js';

const write = (id: string, markdown: string): CompletionResponse => ({
  toolCalls: [{ id, name: 'write_changelog', args: JSON.stringify({ markdown }) }],
});
const stop = (id: string): CompletionResponse => ({
  toolCalls: [{ id, name: 'stop', args: JSON.stringify(scriptedNotes) }],
});

async function session(
  steps: CompletionResponse[],
  configure?: Parameters<typeof buildReleaseNotesAgent>[0]['configure'],
) {
  const outputDir = await mkdtemp(join(tmpdir(), 'agentlog-notes-'));
  const store = createInMemoryEventStore();
  const model = scriptedModel(steps);
  const agent = await buildReleaseNotesAgent({
    model,
    store,
    streamId: 'notes',
    outputDir,
    configure: (builder) => {
      const fixed = builder.clock(fixedClock()).ids(counterIds());
      return configure ? configure(fixed) : fixed;
    },
  });
  return { agent, model, store, outputDir };
}

describe('the release-notes approval loop', () => {
  it('HITL-4 approve: the approved write runs and the structured notes come back', async () => {
    const { agent, model, outputDir, store } = await session([
      write('w1', approvedDraft),
      stop('s1'),
    ]);
    const reviewer = scriptedReviewer('ana', [Verdict.approve()]);
    const outcome = await draftReleaseNotes(agent, 'Draft the notes for 0.34.0', reviewer);
    expect(outcome).toEqual({ kind: 'written', notes: scriptedNotes });
    expect(await readFile(join(outputDir, 'RELEASE_NOTES.md'), 'utf8')).toBe(`${approvedDraft}\n`);
    expect(reviewer.seen).toEqual([{ markdown: approvedDraft }]);
    const decision = (await store.readStream('notes')).find((e) => e.type === 'FeedbackReceived');
    expect(decision?.data).toMatchObject({
      toolCallId: 'w1',
      feedback: { kind: 'approved' },
      by: 'ana',
    });
    model.assertDone();
  });

  it('HITL-8 revise then approve: the refusal and the feedback reach the model, the second draft is written', async () => {
    const { agent, model, outputDir } = await session(scriptedReleaseSession());
    const reviewer = scriptedReviewer('ana', [Verdict.revise('Mention Perl.'), Verdict.approve()]);
    const outcome = await draftReleaseNotes(agent, 'Draft the notes', reviewer);
    expect(outcome.kind).toBe('written');
    expect(reviewer.seen).toHaveLength(2);
    const second = model.requests[1]?.messages.slice(-3).map((m) => m.role);
    expect(second).toEqual(['assistant', 'tool', 'user']);
    expect(model.requests[1]?.messages.at(-1)).toEqual({ role: 'user', text: 'Mention Perl.' });
    expect(await readFile(join(outputDir, 'RELEASE_NOTES.md'), 'utf8')).toBe(`${approvedDraft}\n`);
    model.assertDone();
  });

  it('HITL-1 reject: the session ends as rejected and nothing is written', async () => {
    const { agent, outputDir } = await session([write('w1', 'draft')]);
    const outcome = await draftReleaseNotes(
      agent,
      'Draft',
      scriptedReviewer('ana', [Verdict.reject()]),
    );
    expect(outcome).toEqual({ kind: 'rejected' });
    await expect(readFile(join(outputDir, 'RELEASE_NOTES.md'), 'utf8')).rejects.toThrow(/ENOENT/);
    expect(agent.stopReason()?.kind).toBe('feedbackRequired');
  });

  it('TOOL-3 write fails after approval: the model hears why, drafts again, and only a successful write counts', async () => {
    let attempts = 0;
    const flakyWrite = approvalRequired(
      tool({
        name: 'write_changelog',
        description: 'writes',
        parameters: writeChangelogArgs,
        execute: () => {
          attempts += 1;
          if (attempts === 1) throw new Error('disk full');
          return 'wrote RELEASE_NOTES.md';
        },
      }),
    );
    const { agent, model } = await session(
      [write('w1', 'draft one'), write('w2', 'draft two'), stop('s1')],
      (b) => b.addTool(flakyWrite),
    );
    const reviewer = scriptedReviewer('ana', [Verdict.approve(), Verdict.approve()]);
    const outcome = await draftReleaseNotes(agent, 'Draft', reviewer);
    expect(attempts).toBe(2);
    expect(reviewer.seen.map((p) => p.markdown)).toEqual(['draft one', 'draft two']);
    expect(model.requests[1]?.messages.at(-1)).toMatchObject({
      role: 'tool',
      output: { kind: 'fail', text: 'disk full' },
    });
    expect(outcome).toEqual({ kind: 'written', notes: scriptedNotes });
  });

  it('LOOP-6 a turn without a tool call is nudged once', async () => {
    const { agent, model } = await session([
      { message: 'Here are the notes: ...', toolCalls: [] },
      write('w1', 'draft'),
      stop('s1'),
    ]);
    const outcome = await draftReleaseNotes(
      agent,
      'Draft',
      scriptedReviewer('ana', [Verdict.approve()]),
    );
    expect(outcome.kind).toBe('written');
    expect(model.requests[1]?.messages.at(-1)).toEqual({ role: 'user', text: NUDGE });
  });

  it('LOOP-6 a second turn without a tool call gives up with an error naming the stop', async () => {
    const { agent } = await session([
      { message: 'no', toolCalls: [] },
      { message: 'still no', toolCalls: [] },
    ]);
    await expect(draftReleaseNotes(agent, 'Draft', scriptedReviewer('ana', []))).rejects.toThrow(
      'the agent stopped without writing the notes: {"kind":"noNewMessages"}',
    );
  });
});
