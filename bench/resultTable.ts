/** A titled table of text cells, printed to the terminal and written to Markdown alike. */
export interface ResultTable {
  readonly title: string;
  readonly header: readonly string[];
  readonly rows: readonly (readonly string[])[];
  /** Lines printed under the table. */
  readonly notes?: readonly string[];
}

/** The table as aligned plain-text lines, title first. */
export function tableText(table: ResultTable): string {
  const widths = table.header.map((title, column) =>
    Math.max(title.length, ...table.rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (row: readonly string[]) =>
    row
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd();
  return [
    table.title,
    '',
    line(table.header),
    line(widths.map((width) => '-'.repeat(width))),
    ...table.rows.map(line),
    ...(table.notes === undefined || table.notes.length === 0 ? [] : ['', ...table.notes]),
  ].join('\n');
}

/** The table as a Markdown section: a heading, a pipe table and its notes as paragraphs. */
export function tableMarkdown(table: ResultTable): string {
  const cell = (text: string) => text.replaceAll('|', '\\|');
  const row = (cells: readonly string[]) => `| ${cells.map(cell).join(' | ')} |`;
  return [
    `### ${table.title}`,
    '',
    row(table.header),
    row(table.header.map(() => '---')),
    ...table.rows.map(row),
    ...(table.notes ?? []).flatMap((note) => ['', note]),
  ].join('\n');
}
