/** A fenced TypeScript block of a markdown page. */
export interface MarkdownSnippet {
  /** The page's path relative to the repository, with `/` separators (`docs/stores.md`). */
  readonly page: string;
  /** The 1-based line of the page that holds the block's first line of code. */
  readonly line: number;
  /** `ts` or `tsx`: the extension its virtual module gets. */
  readonly extension: 'ts' | 'tsx';
  readonly code: string;
}

const fence = /^(\s*)(`{3,}|~{3,})\s*([^\s`]*)/;
const typeScriptTags: Readonly<Record<string, 'ts' | 'tsx'>> = {
  ts: 'ts',
  typescript: 'ts',
  tsx: 'tsx',
};

/**
 * The fenced blocks tagged `ts`, `typescript` or `tsx` of one page, in order. A block indented
 * (in a list) loses its fence's indentation; an unclosed block runs to the end of the page, as
 * in CommonMark.
 */
export function markdownSnippets(page: string, markdown: string): MarkdownSnippet[] {
  const lines = markdown.split(/\r?\n/);
  const snippets: MarkdownSnippet[] = [];
  let open: { marker: string; indent: string; tag: string; start: number; code: string[] } | null =
    null;
  for (const [index, text] of lines.entries()) {
    if (open === null) {
      const match = fence.exec(text);
      if (match === null) continue;
      const [, indent = '', marker = '', tag = ''] = match;
      open = { marker, indent, tag: tag.toLowerCase(), start: index + 2, code: [] };
      continue;
    }
    const trimmed = text.trim();
    const closes =
      trimmed.startsWith(open.marker) && trimmed.replaceAll(open.marker[0] ?? '`', '') === '';
    if (!closes) {
      open.code.push(text.startsWith(open.indent) ? text.slice(open.indent.length) : text);
      continue;
    }
    collect(snippets, page, open);
    open = null;
  }
  if (open !== null) collect(snippets, page, open);
  return snippets;
}

function collect(
  snippets: MarkdownSnippet[],
  page: string,
  block: { tag: string; start: number; code: string[] },
): void {
  const extension = typeScriptTags[block.tag];
  if (extension === undefined) return;
  snippets.push({ page, line: block.start, extension, code: block.code.join('\n') + '\n' });
}
