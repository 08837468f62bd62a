import { REFUSAL_TEXT, type ChatMessage, type CompletionRequest } from '@agentlog/core';
import { describe, expect, it } from 'vitest';
import { groupCommits } from './conventionalCommits.js';
import { NUDGE } from './draftReleaseNotes.js';
import { createOfflineDrafter, draftAnswer, OFFLINE_DRAFTER_MODEL } from './offlineDrafter.js';
import { releaseNotesSchema } from './releaseNotes.js';

const task = [
  'Draft the release notes for 2.0.0, from the commits since v1.9.0:',
  '',
  'a1b2c3d feat(cli): a --json flag (#41)',
  'b2c3d4e fix: crash on empty input (#40)',
  'c3d4e5f refactor!: rename the config keys',
  'd4e5f60 docs: a new tutorial',
].join('\n');
const tools = [
  { name: 'stop', description: '', parameters: {} },
  { name: 'write_changelog', description: '', parameters: {} },
];
const request = (...messages: ChatMessage[]): CompletionRequest => ({
  messages: [{ role: 'system', text: 'prompt' }, { role: 'user', text: task }, ...messages],
  tools,
});
const argsOf = (messages: ChatMessage[]) => {
  const [call] = draftAnswer(request(...messages)).toolCalls;
  return { name: call!.name, args: JSON.parse(call!.args ?? '{}') as Record<string, unknown> };
};
const writeCall = (id: string) => ({ id, name: 'write_changelog', args: '{"markdown":"x"}' });

describe('the offline drafter (deterministic rules, not a model)', () => {
  it('groups commits by conventional-commit prefix: breaking (!), feat, fix, other', () => {
    const groups = groupCommits(task.split('\n').slice(2));
    expect(groups.breaking.map((c) => c.subject)).toEqual(['rename the config keys']);
    expect(groups.features.map((c) => [c.scope, c.reference])).toEqual([['cli', '#41']]);
    expect(groups.fixes.map((c) => c.reference)).toEqual(['#40']);
    expect(groups.other.map((c) => c.reference)).toEqual(['d4e5f60']);
  });

  it('a first draft: calls write_changelog, labelled as the drafter in its text and model name', async () => {
    const answer = await createOfflineDrafter().complete(request(), {});
    expect(answer.model).toBe(OFFLINE_DRAFTER_MODEL);
    expect(answer.message).toMatch(/^offline drafter \(deterministic rules, not a model\): /);
    expect(answer.toolCalls.map((call) => call.name)).toEqual(['write_changelog']);
    const { markdown } = JSON.parse(answer.toolCalls[0]!.args!) as { markdown: string };
    expect(markdown).toContain('# 2.0.0\n');
    expect(markdown).toContain('## Breaking changes\n- Rename the config keys (c3d4e5f)\n');
    expect(markdown).toContain('## Highlights\n- cli: A --json flag (#41)\n');
    expect(markdown).not.toContain("Reviewer's request");
    // The same request, the same answer.
    expect(await createOfflineDrafter().complete(request(), {})).toEqual(answer);
  });

  it('HITL-8 and HITL-14: the words after a refusal and a refusal reason become the reviewer requests, in order', () => {
    const { name, args } = argsOf([
      { role: 'assistant', toolCalls: [writeCall('w1')] },
      { role: 'tool', toolCall: writeCall('w1'), output: { kind: 'text', text: REFUSAL_TEXT } },
      { role: 'user', text: 'Mention the migration.' },
      { role: 'assistant', toolCalls: [writeCall('w2')] },
      {
        role: 'tool',
        toolCall: writeCall('w2'),
        output: { kind: 'text', text: `${REFUSAL_TEXT}: Shorter, please.` },
      },
      { role: 'user', text: NUDGE },
    ]);
    expect(name).toBe('write_changelog');
    expect(args.markdown).toContain(
      "## Reviewer's request\n- Mention the migration.\n- Shorter, please.\n",
    );
  });

  it('after a write went through, stops with typed notes the stop tool accepts, under a fresh call id', () => {
    const { name, args } = argsOf([
      { role: 'assistant', toolCalls: [writeCall('w1')] },
      {
        role: 'tool',
        toolCall: writeCall('w1'),
        output: { kind: 'text', text: 'wrote RELEASE_NOTES.md' },
      },
    ]);
    expect(name).toBe('stop');
    const notes = releaseNotesSchema.parse(args);
    expect(notes.version).toBe('2.0.0');
    expect(notes.summary).toBe('Release 2.0.0: 1 new feature, 1 fix and 1 breaking change.');
    expect(notes.fixes).toEqual([
      {
        title: 'Crash on empty input',
        details: 'From commit b2c3d4e (`fix`).',
        references: ['#40'],
      },
    ]);
    expect(draftAnswer(request()).toolCalls[0]!.id).toBe('offline_drafter_1');
  });

  it('bad input: a history without the task, an agent without its tools, each named', () => {
    expect(() => draftAnswer({ messages: [{ role: 'user', text: 'hello' }], tools })).toThrow(
      /found no task "Draft the release notes for <version>/,
    );
    expect(() => draftAnswer({ ...request(), tools: [tools[0]!] })).toThrow(
      /this agent has no write_changelog tool/,
    );
  });
});
