import { describe, expect, it } from 'vitest';
import { emptyMap, mapEntries, mapFreeze, mapGet, mapSet, mapSize } from './versionedMap.js';

describe('the versioned map: writes in place only where no handed-out view looks (issue 21)', () => {
  it('EVT-4 a frozen view never sees a later write, on its lineage or on a branch', () => {
    let tip = mapSet(mapSet(emptyMap<string>(), 'a', 'a1'), 'b', 'b1');
    mapFreeze(tip);
    const published = tip;
    // Written twice after the freeze: the second write overwrites the first in place.
    tip = mapSet(tip, 'a', 'a2');
    const afterFirst = tip;
    tip = mapSet(tip, 'a', 'a3');
    expect(tip).toBe(afterFirst);
    expect(mapGet(tip, 'a')).toBe('a3');
    expect(mapEntries(published)).toEqual([
      ['a', 'a1'],
      ['b', 'b1'],
    ]);
    // A branch off the published view copies what it sees and leaves both lineages alone.
    const branch = mapSet(published, 'b', 'b2');
    expect(mapEntries(branch)).toEqual([
      ['a', 'a1'],
      ['b', 'b2'],
    ]);
    expect(mapGet(published, 'b')).toBe('b1');
    expect(mapGet(tip, 'b')).toBe('b1');
    expect(mapGet(tip, 'a')).toBe('a3');
  });

  it('a write not frozen yet is overwritten in place: one version per key between freezes', () => {
    let view = emptyMap<number>();
    for (let round = 0; round < 3; round += 1) view = mapSet(view, 'k', round);
    expect(view.writes).toBe(1);
    mapFreeze(view);
    view = mapSet(view, 'k', 9);
    expect(view.writes).toBe(2);
    expect(mapSize(view)).toBe(1);
  });

  it('branching off an unfrozen older view freezes what it shares, so neither store changes it', () => {
    const older = mapSet(emptyMap<string>(), 'x', 'x1');
    const newer = mapSet(older, 'y', 'y1');
    const branch = mapSet(older, 'z', 'z1');
    // The tip of the first lineage writes `x` again: a new version, not the shared one.
    const rewritten = mapSet(newer, 'x', 'x2');
    expect(mapGet(branch, 'x')).toBe('x1');
    expect(mapGet(older, 'x')).toBe('x1');
    expect(mapGet(rewritten, 'x')).toBe('x2');
    expect(mapSize(branch)).toBe(2);
    expect(mapSize(older)).toBe(1);
  });
});
