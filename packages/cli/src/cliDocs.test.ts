import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bufferedIo } from './bufferedIo.js';
import { runCli } from './runCli.js';

const page = join(import.meta.dirname, '../../../docs/cli.md');

/** Each `$ agentlog …` line of the page's text blocks, with the lines printed after it. */
function transcripts(markdown: string): { args: string[]; printed: string }[] {
  const found: { args: string[]; printed: string }[] = [];
  for (const [, block = ''] of markdown.matchAll(/^```text\n([\s\S]*?)^```$/gm)) {
    for (const part of block.split(/^(?=\$ agentlog )/m)) {
      if (!part.startsWith('$ agentlog ')) continue;
      const [command = '', ...printed] = part.split('\n');
      found.push({ args: words(command.slice('$ agentlog '.length)), printed: printed.join('\n') });
    }
  }
  return found;
}

/** Shell words: split at spaces, single quotes kept together. */
function words(line: string): string[] {
  return [...line.matchAll(/'([^']*)'|(\S+)/g)].map(([, quoted, bare]) => quoted ?? bare ?? '');
}

const examples = transcripts(readFileSync(page, 'utf8'));
// A database URL's outcome depends on what listens there; those examples are not replayed.
const offline = examples.filter(({ args }) => !args.some((arg) => arg.includes('://')));

describe('docs/cli.md', () => {
  it('shows the help and the usage errors', () => {
    const shown = offline.map(({ args }) => args.join(' '));
    expect(shown).toEqual(expect.arrayContaining(['--help', 'approve --help']));
    expect(offline.length).toBeGreaterThanOrEqual(5);
  });

  it.each(offline.map((example) => [example.args.join(' '), example] as const))(
    'agentlog %s prints what the page shows',
    async (_, { args, printed }) => {
      const out = bufferedIo({ cwd: join(import.meta.dirname, '../../..') });
      await runCli(args, out.io);
      expect(out.stdout() + out.stderr()).toBe(printed);
    },
  );
});
