import { compactJson, oneLine, quoted } from '@agentlog/core/read-models';
import { diffLines } from './diffLines.js';
import { markup, type SafeHtml } from './html.js';

/** Tool-call arguments read for display: JSON fields, with the drafts (long texts) apart. */
interface ReadArgs {
  /** The arguments without the drafts, pretty JSON (or the text itself when it is not JSON). */
  readonly rest: string | undefined;
  /** String fields that are documents: multi-line or Markdown. */
  readonly drafts: ReadonlyArray<{ readonly key: string; readonly text: string }>;
}

/** A string that reads as a document: several lines, or Markdown (heading, list, code, bold). */
export function isDraft(text: string): boolean {
  return text.includes('\n') || /^#{1,6} |^\s*[-*] |```|\*\*[^*]+\*\*/m.test(text);
}

function readArgs(args: string | undefined): ReadArgs {
  if (args === undefined || args.trim() === '') return { rest: undefined, drafts: [] };
  let parsed: unknown;
  try {
    parsed = JSON.parse(args);
  } catch {
    return { rest: args, drafts: [] };
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    return { rest: JSON.stringify(parsed, null, 2), drafts: [] };
  const drafts: Array<{ key: string; text: string }> = [];
  const rest: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(parsed as Record<string, unknown>)) {
    if (typeof value === 'string' && isDraft(value)) drafts.push({ key, text: value });
    else rest[key] = value;
  }
  return {
    rest:
      Object.keys(rest).length === 0 && drafts.length > 0
        ? undefined
        : JSON.stringify(rest, null, 2),
    drafts,
  };
}

/**
 * The full arguments of a call: the JSON fields as pretty JSON, each draft (a Markdown or
 * multi-line string) as preformatted text under its field name, never as JSON with `\n` escapes.
 */
export function argsView(args: string | undefined): SafeHtml {
  const { rest, drafts } = readArgs(args);
  if (rest === undefined && drafts.length === 0) return markup`<p class="meta">(no arguments)</p>`;
  return markup`${rest !== undefined && markup`<pre class="json">${rest}</pre>`}${drafts.map(
    ({ key, text }) =>
      markup`<div class="draft">
        <div class="field">${key}</div>
        <pre class="text">${text}</pre>
      </div>`,
  )}`;
}

function diffBlock(label: string, before: string, after: string): SafeHtml {
  const lines = diffLines(before, after).map(({ kind, text }) => {
    const sign = kind === 'same' ? ' ' : kind === 'removed' ? '-' : '+';
    return markup`<span class="${kind}">${sign} ${text}</span>`;
  });
  return markup`<div class="draft">
    <div class="field">${label}</div>
    <pre class="diff">${lines}</pre>
  </div>`;
}

/**
 * The line diff of a revised call's arguments against the refused ones: per draft field present
 * in either, and for the other fields; unchanged parts are left out.
 */
export function revisionDiff(before: string | undefined, after: string | undefined): SafeHtml {
  const old = readArgs(before);
  const now = readArgs(after);
  const keys = [...new Set([...old.drafts, ...now.drafts].map(({ key }) => key))];
  const blocks: SafeHtml[] = [];
  for (const key of keys) {
    const a = old.drafts.find((draft) => draft.key === key)?.text ?? '';
    const b = now.drafts.find((draft) => draft.key === key)?.text ?? '';
    if (a !== b) blocks.push(diffBlock(key, a, b));
  }
  if ((old.rest ?? '') !== (now.rest ?? ''))
    blocks.push(
      diffBlock(keys.length === 0 ? 'arguments' : 'other fields', old.rest ?? '', now.rest ?? ''),
    );
  return blocks.length === 0
    ? markup`<p class="meta">Same arguments as the refused call.</p>`
    : markup`${blocks}`;
}

/**
 * A one-line summary of tool-call arguments: `key: value` per field, a draft as `<N lines>`,
 * long values cut with `…`, the whole cut to `max` characters.
 */
export function argsSummary(args: string | undefined, max = 80): string {
  if (args === undefined || args.trim() === '') return '(no arguments)';
  let parsed: unknown;
  try {
    parsed = JSON.parse(args);
  } catch {
    return oneLine(args, max);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
    return compactJson(parsed, max);
  const fields = Object.entries(parsed as Record<string, unknown>).map(([key, value]) => {
    if (typeof value === 'string')
      return `${key}: ${isDraft(value) ? `<${value.split('\n').length} lines>` : quoted(value, 30)}`;
    return `${key}: ${compactJson(value, 30)}`;
  });
  return fields.length === 0 ? '{}' : oneLine(fields.join(', '), max);
}
