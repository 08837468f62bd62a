import { describe, expect, it } from 'vitest';
import { AgentlogError, ConcurrencyError } from '@agentlog/core';
import { asStoreError, driverMessage, findRevisionGap, jsonProblem } from './storeErrors.js';

const gap = (revisions: number[], read = {}) =>
  findRevisionGap('s', 'the store', revisions, read)?.message;

describe('the store errors every adapter shares', () => {
  it('RES-5: a driver error becomes storeUnavailable with it as cause; agentlog errors stay as they are', () => {
    const driver = Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
    expect(asStoreError(driver, 'SQLite store a.db, stream s', 'the append failed')).toMatchObject({
      name: 'AgentError',
      code: 'storeUnavailable',
      message: 'SQLite store a.db, stream s: the append failed: database is locked (SQLITE_BUSY)',
      cause: driver,
    });
    const conflict = new ConcurrencyError('s', 0, 1);
    expect(asStoreError(conflict, 'x', 'y')).toBe(conflict);
    const closed = new AgentlogError('closed', 'closed');
    expect(asStoreError(closed, 'x', 'y')).toBe(closed);
  });

  it('RES-5: names every address of a refused connection (an AggregateError has no message of its own)', () => {
    const refused = (address: string) =>
      Object.assign(new Error(`connect ECONNREFUSED ${address}`), { code: 'ECONNREFUSED' });
    const error = Object.assign(
      new AggregateError([refused('::1:5432'), refused('127.0.0.1:5432')]),
      {
        code: 'ECONNREFUSED',
      },
    );
    expect(driverMessage(error)).toBe(
      'connect ECONNREFUSED ::1:5432; connect ECONNREFUSED 127.0.0.1:5432',
    );
  });

  it('EVT-4: finds a gap between two revisions, before the first of a forward read, below the last of a backward read', () => {
    expect(gap([0, 1, 2])).toBeUndefined();
    expect(gap([0, 1, 3])).toBe(
      'stream s of the store: revision 2 is missing: the events jump from 1 to 3',
    );
    expect(gap([0, 4])).toBe(
      'stream s of the store: revisions 1 to 3 are missing: the events jump from 0 to 4',
    );
    expect(gap([2, 3])).toBe(
      'stream s of the store: revisions 0 to 1 are missing: the stream starts at revision 2',
    );
    expect(gap([5, 6], { fromRevision: 4 })).toBe(
      'stream s of the store: revision 4 is missing: a read from revision 4 finds revision 5 first',
    );
    expect(gap([5, 6], { fromRevision: 5 })).toBeUndefined();
    expect(gap([6, 5, 3], { direction: 'backwards' })).toBe(
      'stream s of the store: revision 4 is missing: the events jump from 3 to 5',
    );
    // Backwards, the start of the stream must be 0 only when the read reached it.
    expect(gap([6, 5], { direction: 'backwards', maxCount: 2 })).toBeUndefined();
    expect(gap([6, 5], { direction: 'backwards', maxCount: 3 })).toBe(
      'stream s of the store: revisions 0 to 4 are missing: the stream starts at revision 5',
    );
    expect(gap([])).toBeUndefined();
  });

  it('EVT-4: names a byte order mark outside any string, and leaves one inside a string alone', () => {
    const fail = (text: string): string => {
      try {
        JSON.parse(text);
      } catch (error) {
        return jsonProblem(text, error);
      }
      throw new Error('expected invalid JSON');
    };
    expect(fail('\uFEFF{"a":1}')).toBe(
      'it starts with a byte order mark (U+FEFF), which JSON does not allow',
    );
    expect(fail('{"a\uFEFF":\uFEFF1}')).toBe(
      'it contains a byte order mark (U+FEFF) at character 7, outside any string',
    );
    expect(fail('{"a\\"\uFEFF": oops}')).toMatch(/^it is not JSON \(/);
  });
});
