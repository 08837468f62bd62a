import { visibleLine, visibleText } from './visibleText.js';

/**
 * Puts `text` on one line (runs of white space become one space, control and invisible characters
 * visible escapes, SPEC REV-1) and cuts it to `max` characters with `…`.
 */
export function oneLine(text: string, max = 60): string {
  const flat = visibleText(text).replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/** `text` on one line, cut to `max`, in double quotes. */
export function quoted(text: string, max = 60): string {
  return `"${oneLine(text, max)}"`;
}

/** Compact JSON of `value`, cut to `max` characters; `''` for `undefined`. */
export function compactJson(value: unknown, max = 60): string {
  if (value === undefined) return '';
  return oneLine(JSON.stringify(value), max);
}

/**
 * A short summary of tool-call arguments (the JSON text the model sent): `<N lines>` when a field
 * is a multi-line string (a document), else the compact JSON cut to about 60 characters.
 */
export function summarizeArgs(args: string | undefined, max = 60): string {
  if (args === undefined || args.trim() === '') return '';
  let parsed: unknown;
  try {
    parsed = JSON.parse(args);
  } catch {
    return oneLine(args, max);
  }
  if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) {
    const document = Object.values(parsed).find(
      (value): value is string => typeof value === 'string' && value.includes('\n'),
    );
    if (document !== undefined) return `<${document.split('\n').length} lines>`;
  }
  return compactJson(parsed, max);
}

/** The `HH:MM:SS` (UTC) of an ISO time, or the text itself (on one line, visible) when it is not one. */
export function clockTime(iso: string): string {
  return /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/.test(iso) ? iso.slice(11, 19) : visibleLine(iso);
}

/**
 * The `YYYY-MM-DD HH:MM:SS` (UTC) of an ISO time, or the text itself (on one line, visible) when
 * it is not one.
 */
export function dateTime(iso: string): string {
  return /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/.test(iso)
    ? iso.slice(0, 19).replace('T', ' ')
    : visibleLine(iso);
}
