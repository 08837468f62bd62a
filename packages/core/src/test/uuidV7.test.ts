import { describe, expect, it } from 'vitest';
import { uuidV7 } from '../support/uuidV7.js';

describe('default event ids', () => {
  it('EVT-2 uuidV7 gives valid version-7 UUIDs that increase strictly within a process', () => {
    const ids = Array.from({ length: 10_000 }, () => uuidV7());
    for (const id of ids) {
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    }
    // The random tail uses every hex digit in every position (16 bytes formatted, none fixed).
    for (let position = 24; position < 36; position += 1)
      expect(new Set(ids.map((id) => id[position])).size).toBe(16);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
    const stamp = Number.parseInt(ids[0]!.replace(/-/g, '').slice(0, 12), 16);
    expect(Math.abs(stamp - Date.now())).toBeLessThan(60_000);
  });
});
