import type { CompletionResponse } from '@agentlog/core';
import type { ReleaseNotes } from './releaseNotes.js';

// Scripted by hand, not recorded: no model can be reached from where this runs. The answers
// follow the shape of a real session (draft, revision after review, approved write, structured
// stop), so the showcase runs without an API key.

const firstDraft = [
  '# 0.34.0',
  '',
  'This release adds the opt-in `agents-contrib` crate.',
  '',
  '## Highlights',
  '- Agent tools, hooks and executors in `agents-contrib` (#1207)',
].join('\n');

const secondDraft = [
  '# 0.34.0',
  '',
  'This release adds the opt-in `agents-contrib` crate and Perl support for tree-sitter.',
  '',
  '## Highlights',
  '- Agent tools, hooks and executors in `agents-contrib` (#1207)',
  '- Perl support for tree-sitter (#1198)',
  '',
  '## Breaking changes',
  '- AWS Console login removed from the Bedrock client (#1215)',
  '',
  '## Fixes',
  '- Repeated text in OpenAI streaming (#1216)',
].join('\n');

/** The notes the scripted model hands over with `stop`. */
export const scriptedNotes: ReleaseNotes = {
  version: '0.34.0',
  summary: 'This release adds the opt-in agents-contrib crate and Perl support for tree-sitter.',
  highlights: [
    {
      title: 'Agent tools, hooks and executors in agents-contrib',
      details: 'An opt-in crate of ready-made agent parts.',
      references: ['#1207'],
    },
    {
      title: 'Perl support for tree-sitter',
      details: 'Perl files are now parsed and chunked.',
      references: ['#1198'],
    },
  ],
  breaking_changes: [
    {
      title: 'AWS Console login removed from the Bedrock client',
      details: 'Resolves security advisories.',
      references: ['#1215'],
    },
  ],
  fixes: [
    {
      title: 'Repeated text in OpenAI streaming',
      details: 'Streamed answers no longer repeat text.',
      references: ['#1216'],
    },
  ],
};

/** The model's side of the showcase session, in order. */
export function scriptedReleaseSession(): CompletionResponse[] {
  return [
    {
      message: 'Here is a first draft.',
      toolCalls: [
        {
          id: 'call_draft_1',
          name: 'write_changelog',
          args: JSON.stringify({ markdown: firstDraft }),
        },
      ],
    },
    {
      toolCalls: [
        {
          id: 'call_draft_2',
          name: 'write_changelog',
          args: JSON.stringify({ markdown: secondDraft }),
        },
      ],
    },
    { toolCalls: [{ id: 'call_stop', name: 'stop', args: JSON.stringify(scriptedNotes) }] },
  ];
}

/** The Markdown of the draft the reviewer approves in the showcase. */
export const approvedDraft = secondDraft;

/** The notes the scripted model hands over when the first draft is approved as it is. */
export const firstDraftNotes: ReleaseNotes = {
  version: '0.34.0',
  summary: 'This release adds the opt-in agents-contrib crate.',
  highlights: [scriptedNotes.highlights[0]!],
  breaking_changes: [],
  fixes: [],
};

/** The model's side when the reviewer approves the first draft. */
export function scriptedApproveSession(): CompletionResponse[] {
  const [draft] = scriptedReleaseSession();
  return [
    draft!,
    { toolCalls: [{ id: 'call_stop', name: 'stop', args: JSON.stringify(firstDraftNotes) }] },
  ];
}
