import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { Verdict } from './reviewer.js';
import { noStyle } from './style.js';
import { terminalReviewer } from './terminalReviewer.js';

const proposal = { markdown: '# 0.34.0\n\n- Perl support (#1198)\n' };

function reviewer(answers: string, options: { yes?: boolean; existing?: number } = {}) {
  const out: string[] = [];
  const review = terminalReviewer({
    name: 'ana',
    input: Readable.from([answers]),
    print: (line) => out.push(`${line}\n`),
    prompt: (text) => out.push(text),
    style: noStyle,
    ...(options.yes === undefined ? {} : { yes: options.yes }),
    existingLines: () => options.existing,
  });
  return { review, text: () => out.join('') };
}

describe('the terminal reviewer, with piped answers', () => {
  it('shows the proposed file and approves on y', async () => {
    const { review, text } = reviewer('y\n');
    expect(await review.review(proposal)).toEqual(Verdict.approve());
    expect(text()).toContain('── proposed: 3 lines into a new file, RELEASE_NOTES.md\n');
    expect(text()).toContain('   - Perl support (#1198)\n');
    expect(text()).toContain('Write these release notes? [y/N] y\n');
    review.close();
  });

  it('asks for revision feedback on anything else, then takes the next answer', async () => {
    const { review, text } = reviewer('n\nMention the breaking change.\nyes\n');
    expect(await review.review(proposal)).toEqual(Verdict.revise('Mention the breaking change.'));
    expect(await review.review(proposal)).toEqual(Verdict.approve());
    expect(text()).toContain('What should change? (an empty line rejects) ');
    review.close();
  });

  it('rejects on an empty feedback line', async () => {
    const { review } = reviewer('\n\n');
    expect(await review.review(proposal)).toEqual(Verdict.reject());
    review.close();
  });

  it('rejects when the input ends: no more answers', async () => {
    const { review, text } = reviewer('');
    expect(await review.review(proposal)).toEqual(Verdict.reject());
    expect(text()).toContain('no more answers');
  });

  it('--yes approves without reading, and names the file it replaces', async () => {
    const { review, text } = reviewer('', { yes: true, existing: 6 });
    expect(await review.review(proposal)).toEqual(Verdict.approve());
    expect(await review.review(proposal)).toEqual(Verdict.approve());
    expect(text()).toContain('── proposed: 3 lines into RELEASE_NOTES.md, replacing its 6 lines');
  });
});
