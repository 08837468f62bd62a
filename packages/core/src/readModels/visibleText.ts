// Text from a model, a tool, a stream id or a reviewer, made safe to show (SPEC REV-1).

/**
 * The characters a terminal or a page would act on or hide instead of showing: C0 controls but
 * tab and newline (ESC, CR, backspace, BEL, …), DEL, C1 controls, the soft hyphen, bidi controls,
 * zero-width and invisible formatting characters, line and paragraph separators, interlinear
 * annotation marks, tag characters and lone surrogates.
 */
const hidden =
  /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u061c\u180e\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\u{e0000}-\u{e007f}]|[\ud800-\udfff]/gu;

/** `\r` for CR, else `\u001b` (four hex digits) or `\u{e0041}` beyond U+FFFF. */
function escapeOf(char: string): string {
  if (char === '\r') return '\\r';
  const code = char.codePointAt(0) ?? 0;
  return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * `text` with every control, bidi, zero-width and invisible formatting character replaced by a
 * visible escape (`\u001b`, `\u202e`, CR as `\r`), so what a reviewer reads is what runs
 * (SPEC REV-1). Printable text, tabs and newlines stay as they are.
 */
export function visibleText(text: string): string {
  return text.replace(hidden, escapeOf);
}

/**
 * {@link visibleText} for text shown on one line (ids, names, notes, table cells): newlines and
 * tabs are shown as `\n` and `\t` too, so the text cannot start a line of its own.
 */
export function visibleLine(text: string): string {
  return visibleText(text).replace(/[\n\t]/g, (char) => (char === '\n' ? '\\n' : '\\t'));
}
