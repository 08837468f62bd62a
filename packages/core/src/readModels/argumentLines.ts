import { visibleText } from './visibleText.js';

/**
 * The arguments as a reviewer reads them: JSON pretty-printed, except that a multi-line or
 * Markdown string field is shown below the JSON as text, with its lines as they are; control and
 * invisible characters are visible escapes (SPEC REV-1).
 */
export function argumentLines(args: string | undefined): string[] {
  return rawArgumentLines(args).map(visibleText);
}

function rawArgumentLines(args: string | undefined): string[] {
  if (args === undefined || args.trim() === '') return ['(none)'];
  let parsed: unknown;
  try {
    parsed = JSON.parse(args);
  } catch {
    return ['(not JSON, as the model sent it)', ...args.split('\n')];
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    return JSON.stringify(parsed, null, 2).split('\n');
  const texts: [string, string][] = [];
  const rest: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(parsed)) {
    if (typeof value === 'string' && isDocument(key, value)) {
      texts.push([key, value]);
      rest[key] = `<${lineCount(value)}, below>`;
    } else rest[key] = value;
  }
  const lines = JSON.stringify(rest, null, 2).split('\n');
  for (const [key, text] of texts)
    lines.push('', `${key} (${lineCount(text)}):`, ...text.split('\n').map((line) => indent(line)));
  return lines;
}

function isDocument(key: string, value: string): boolean {
  return value.includes('\n') || /markdown|^md$/i.test(key);
}

function lineCount(text: string): string {
  const count = text.split('\n').length;
  return `${count} line${count === 1 ? '' : 's'}`;
}

function indent(line: string): string {
  return line === '' ? '' : `  ${line}`;
}
