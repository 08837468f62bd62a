import { describe, expect, it } from 'vitest';
import { StringIndex } from './stringIndex.js';

/** Adds each key at the end of `keys` and to the index, as the versioned map does. */
function indexed(keys: string[], added: readonly string[]): StringIndex {
  const index = new StringIndex(keys);
  for (const key of added) {
    index.add(key, keys.length);
    keys.push(key);
  }
  return index;
}

describe('the string index behind the versioned map (issue 21)', () => {
  it('finds every key it was given across many growths, and no key it was not', () => {
    const keys: string[] = [];
    const added = Array.from({ length: 20_000 }, (_, n) => `call_${n.toString(36)}`);
    const index = indexed(keys, added);
    expect(index.size).toBe(20_000);
    for (let n = 0; n < added.length; n += 1) expect(index.find(`call_${n.toString(36)}`)).toBe(n);
    // Near misses: a prefix, a longer key, another case, the key of the next id.
    for (const absent of ['call_', 'call_00', 'CALL_1', 'call_1 ', `call_${(20_000).toString(36)}`])
      expect(index.find(absent)).toBe(-1);
  });

  it('compares whole keys: strings that differ in one code unit, empty, astral and long keys', () => {
    const keys: string[] = [];
    const added = [
      '',
      'a',
      'b',
      'ab',
      'ba',
      '\u{1F600}',
      '\uD83D',
      'x'.repeat(10_000),
      'x'.repeat(9_999) + 'y',
    ];
    const index = indexed(keys, added);
    added.forEach((key, position) => expect(index.find(key)).toBe(position));
    expect(index.find('x'.repeat(9_999))).toBe(-1);
    expect(index.find('\uDE00')).toBe(-1);
  });

  it('a key built at run time finds the position of an equal literal (equality by content)', () => {
    const keys: string[] = [];
    const index = indexed(keys, ['tool-call-7']);
    const built = ['tool', 'call', String(7)].join('-');
    expect(index.find(built)).toBe(0);
    expect(index.find(JSON.parse('"tool-call-7"') as string)).toBe(0);
  });
});
