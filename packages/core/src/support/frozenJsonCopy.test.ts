import { describe, expect, it } from 'vitest';
import { findNonJson } from './json.js';
import { frozenJsonCopy, NotJsonError } from './frozenJsonCopy.js';

describe('frozenJsonCopy, the one copy of the write path', () => {
  it('EVT-2 gives what a JSON round trip gives: undefined properties dropped, -0 as 0, key order kept', () => {
    const value = { b: 1, a: [1, 'x', null, { c: undefined, d: -0 }], e: undefined, f: true };
    const copied = frozenJsonCopy(value);
    expect(copied).toStrictEqual(JSON.parse(JSON.stringify(value)));
    expect(Object.keys(copied)).toEqual(['b', 'a', 'f']);
    expect(Object.is((copied.a[3] as { d: number }).d, 0)).toBe(true);
  });

  it('EVT-2 keeps a __proto__ key as an own property, as JSON.parse does', () => {
    const value = JSON.parse('{"__proto__":{"polluted":true}}') as Record<string, unknown>;
    const copied = frozenJsonCopy(value);
    expect(Object.getPrototypeOf(copied)).toBe(Object.prototype);
    expect(Object.keys(copied)).toEqual(['__proto__']);
    expect(JSON.stringify(copied)).toBe('{"__proto__":{"polluted":true}}');
  });

  it('EVT-2 the copy is detached from the caller and frozen all the way down', () => {
    const value = { list: [{ text: 'a' }] };
    const copied = frozenJsonCopy(value);
    value.list[0]!.text = 'changed';
    expect(copied.list[0]?.text).toBe('a');
    expect(Object.isFrozen(copied)).toBe(true);
    expect(Object.isFrozen(copied.list)).toBe(true);
    expect(Object.isFrozen(copied.list[0])).toBe(true);
  });

  it('EVT-2 the copy is known plain JSON, so a store does not walk it again', () => {
    const copied = frozenJsonCopy({ a: 1 });
    expect(findNonJson(copied)).toBeUndefined();
  });

  it.each([
    [{ a: { b: () => 1 } }, '$.a.b (function) is not JSON'],
    [{ list: [1, undefined] }, '$.list[1] (undefined) is not JSON'],
    [{ n: Number.NaN }, '$.n (NaN) is not JSON'],
    [{ big: 1n }, '$.big (bigint) is not JSON'],
    [{ when: new Date(0) }, '$.when (a Date, not a plain object) is not JSON'],
  ])('EVT-6 names the first part that is not JSON, as findNonJson does: %s', (value, message) => {
    expect(() => frozenJsonCopy(value)).toThrow(
      new NotJsonError(message.replace(' is not JSON', '')),
    );
    expect(`${findNonJson(value)} is not JSON`).toBe(message);
  });

  it('EVT-6 a cyclic value is refused at $, not with a stack overflow', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => frozenJsonCopy(cyclic)).toThrow('$ (cyclic or too deeply nested) is not JSON');
  });
});
