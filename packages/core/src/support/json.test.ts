import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from './json.js';

/**
 * The obvious canonical form, written for this test: every object's keys sorted and written one
 * by one (a sorted copy would not do: an object lists integer-like keys first, whatever order).
 */
function reference(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(reference).join(',')}]`;
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record).sort();
  return `{${keys.map((key) => `${JSON.stringify(key)}:${reference(record[key])}`).join(',')}}`;
}

describe('canonical JSON (the request fingerprint, SPEC RPL-1)', () => {
  it('RPL-1 equals a sorted copy written by JSON.stringify, for keys in any order and number', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 4 }), (value) => {
        expect(canonicalJson(value)).toBe(reference(value));
      }),
      { numRuns: 500 },
    );
  });

  it('RPL-1 sorts a few keys and many keys alike, whatever order they were written in', () => {
    const few = { role: 'tool', toolCall: { id: 'a' }, output: { text: 'x', kind: 'text' } };
    expect(canonicalJson(few)).toBe(
      '{"output":{"kind":"text","text":"x"},"role":"tool","toolCall":{"id":"a"}}',
    );
    const many = Object.fromEntries(
      Array.from({ length: 40 }, (_, index) => [
        `k${(40 - index).toString().padStart(2, '0')}`,
        index,
      ]),
    );
    const keys = Object.keys(JSON.parse(canonicalJson(many)) as object);
    expect(keys).toEqual([...keys].sort());
    expect(keys).toHaveLength(40);
  });
});
