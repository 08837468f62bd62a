import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { markdownSnippets } from './markdownSnippets.js';
import type { MarkdownSnippet } from './markdownSnippets.js';
import { typeCheckSnippets } from './typeCheckSnippets.js';

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));

/** README.md and every page under docs/, read now, so a new page is checked without a change here. */
function documentationPages(): string[] {
  const docs = readdirSync(join(repoRoot, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.md'))
    .map((path) => `docs/${path.split('\\').join('/')}`);
  return ['README.md', ...docs.sort()];
}

function snippetsOf(pages: readonly string[]): MarkdownSnippet[] {
  return pages.flatMap((page) =>
    markdownSnippets(page, readFileSync(join(repoRoot, page), 'utf8')),
  );
}

describe('the TypeScript snippets of README.md and docs/', () => {
  it('type-check under the compiler options of tsconfig.base.json', { timeout: 60_000 }, () => {
    const snippets = snippetsOf(documentationPages());
    expect(snippets.length).toBeGreaterThan(0);
    expect(typeCheckSnippets(repoRoot, snippets)).toEqual([]);
  });
});

describe('markdownSnippets', () => {
  it('takes the blocks tagged ts, typescript and tsx, with the line of their first line of code', () => {
    const page = [
      '# A page', // 1
      '```ts', // 2
      'const a = 1;', // 3
      '```', // 4
      '```sh', // 5
      'npm test', // 6
      '```', // 7
      '```', // 8
      'plain text', // 9
      '```', // 10
      '- in a list:', // 11
      '  ```TypeScript', // 12
      '  const b = 2;', // 13
      '  ```', // 14
      '````tsx', // 15
      '```', // 16
      '````', // 17
    ].join('\n');
    expect(markdownSnippets('docs/a.md', page)).toEqual([
      { page: 'docs/a.md', line: 3, extension: 'ts', code: 'const a = 1;\n' },
      { page: 'docs/a.md', line: 13, extension: 'ts', code: 'const b = 2;\n' },
      { page: 'docs/a.md', line: 16, extension: 'tsx', code: '```\n' },
    ]);
  });
});

describe('typeCheckSnippets', () => {
  it(
    'names the page and line of each error; each snippet is a module of its own',
    { timeout: 60_000 },
    () => {
      const page = (line: number, code: string): MarkdownSnippet => ({
        page: 'docs/a.md',
        line,
        extension: 'ts',
        code,
      });
      const diagnostics = typeCheckSnippets(repoRoot, [
        page(3, "const answer = 42;\nconst wrong: number = 'no';\n"),
        page(
          9,
          "import { Agent } from '@agentlog/core';\nconst answer = await Agent.builder().build();\n",
        ),
        page(20, "import { NoSuchExport } from '@agentlog/core';\n"),
      ]);
      expect(diagnostics).toEqual([
        "docs/a.md:4: Type 'string' is not assignable to type 'number'.",
        `docs/a.md:20: Module '"@agentlog/core"' has no exported member 'NoSuchExport'.`,
      ]);
    },
  );
});
