import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';

// Each adapter's append, by the file that holds it. The rule itself is tested in core
// (judgeAppend.test.ts) and proved in every store by the conformance suite.
const appends = {
  'in memory': '../../core/src/store/inMemoryEventStore.ts',
  SQLite: './sqlite/createSqliteAppendWrite.ts',
  PostgreSQL: './postgres/postgresAppend.ts',
  KurrentDB: './kurrent/createKurrentEventStore.ts',
};

describe('one append protocol: every adapter calls judgeAppend (RES-3)', () => {
  test.each(Object.entries(appends))('%s', (_, file) => {
    const source = readFileSync(new URL(file, import.meta.url), 'utf8');
    expect(source).toMatch(/\bjudgeAppend\(/);
    // The parts of the rule, decided anywhere else, would be a second copy of it.
    expect(source).not.toMatch(/\bsatisfiesExpectedRevision\(|\bisStoredRetry\b/);
  });
});
