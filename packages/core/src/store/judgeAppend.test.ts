import { describe, expect, test } from 'vitest';
import { ConcurrencyError } from '../errors/concurrencyError.js';
import type { ExpectedRevision } from '../ports/eventStore.js';
import { judgeAppend } from './judgeAppend.js';

/** A stream holding these ids at revisions 0, 1, 2, … */
function holding(...ids: string[]) {
  const revisions = new Map(ids.map((id, revision) => [id, revision]));
  return {
    streamId: 's',
    last: ids.length === 0 ? ('noStream' as const) : ids.length - 1,
    revisionOf: (id: string) => revisions.get(id),
  };
}

const decide = (stored: string[], offered: string[], expected: ExpectedRevision) =>
  judgeAppend(holding(...stored), offered, expected);

describe('judgeAppend: the one append protocol (RES-3)', () => {
  test('a new stream is written from revision 0', () => {
    expect(decide([], ['a', 'b'], 'noStream')).toEqual({
      kind: 'write',
      indexes: [0, 1],
      firstRevision: 0,
      nextExpectedRevision: 1,
    });
  });

  test('new events go after the last revision when the expectation holds', () => {
    for (const expected of [1, 'streamExists', 'any'] as const) {
      expect(decide(['a', 'b'], ['c'], expected)).toEqual({
        kind: 'write',
        indexes: [0],
        firstRevision: 2,
        nextExpectedRevision: 2,
      });
    }
  });

  test.each([
    [['a', 'b'], 0, 1],
    [['a', 'b'], 'noStream', 1],
    [[], 'streamExists', 'noStream'],
    [[], 0, 'noStream'],
  ] as const)(
    'stream %j, expected %j: a conflict naming the actual revision',
    (stored, expected, actual) => {
      const decision = decide([...stored], ['x'], expected);
      expect(decision.kind).toBe('conflict');
      if (decision.kind !== 'conflict') return;
      expect(decision.error).toBeInstanceOf(ConcurrencyError);
      expect(decision.error).toMatchObject({ streamId: 's', expected, actual });
    },
  );

  test('a retry of stored events succeeds whatever it expects, and writes nothing', () => {
    for (const expected of ['noStream', 0, 5, 'any'] as const) {
      expect(decide(['a', 'b', 'c'], ['b', 'c'], expected)).toEqual({
        kind: 'alreadyStored',
        nextExpectedRevision: 2,
      });
    }
  });

  test('stored events out of their order are no retry: the expectation is checked', () => {
    expect(decide(['a', 'b', 'c'], ['c', 'b'], 0).kind).toBe('conflict');
    expect(decide(['a', 'b', 'c'], ['c', 'a'], 2)).toEqual({
      kind: 'alreadyStored',
      nextExpectedRevision: 2,
    });
  });

  test('a batch partly stored writes only its new events, once each', () => {
    expect(decide(['a', 'b'], ['b', 'c', 'c', 'a', 'd'], 1)).toEqual({
      kind: 'write',
      indexes: [1, 4],
      firstRevision: 2,
      nextExpectedRevision: 3,
    });
    expect(decide(['a', 'b'], ['b', 'c'], 0).kind).toBe('conflict');
  });

  test('an id repeated in one batch is written once', () => {
    expect(decide([], ['a', 'a', 'b'], 'noStream')).toEqual({
      kind: 'write',
      indexes: [0, 2],
      firstRevision: 0,
      nextExpectedRevision: 1,
    });
  });

  test('an id repeated in a long batch is written once, wherever it repeats', () => {
    // Past 16 ids the decision looks ids up in a set instead of among the earlier ones.
    const offered = Array.from({ length: 40 }, (_, index) => `id-${index % 30}`);
    const stored = ['id-3', 'id-29'];
    const decision = decide(stored, offered, 1);
    const expected = offered.flatMap((id, index) =>
      offered.indexOf(id) === index && !stored.includes(id) ? [index] : [],
    );
    expect(expected).toHaveLength(28);
    expect(decision).toEqual({
      kind: 'write',
      indexes: expected,
      firstRevision: 2,
      nextExpectedRevision: 29,
    });
  });

  test('each offered id is looked up once, whether the append is new or a retry', () => {
    // A store may pay a query per lookup (SQLite decides id by id on its slow path).
    const counted = (...ids: string[]) => {
      const stream = holding(...ids);
      const asked: string[] = [];
      return {
        asked,
        target: {
          ...stream,
          revisionOf: (id: string) => {
            asked.push(id);
            return stream.revisionOf(id);
          },
        },
      };
    };
    const fresh = counted('a', 'b');
    expect(judgeAppend(fresh.target, ['c', 'd', 'e'], 1).kind).toBe('write');
    expect(fresh.asked).toEqual(['c', 'd', 'e']);
    const retry = counted('a', 'b', 'c');
    expect(judgeAppend(retry.target, ['b', 'c'], 0).kind).toBe('alreadyStored');
    expect(retry.asked).toEqual(['b', 'c']);
  });

  test('an empty append writes nothing and reports where the stream is', () => {
    expect(decide([], [], 'noStream')).toEqual({ kind: 'alreadyStored', nextExpectedRevision: -1 });
    expect(decide(['a'], [], 0)).toEqual({ kind: 'alreadyStored', nextExpectedRevision: 0 });
    expect(decide(['a'], [], 'noStream').kind).toBe('conflict');
  });
});
