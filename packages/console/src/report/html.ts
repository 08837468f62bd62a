/**
 * Auto-escaping HTML templates for the report: `markup\`<td>${value}</td>\`` escapes every
 * interpolated value unless it is a {@link SafeHtml} fragment built by `markup` itself. There is no
 * other way to make a `SafeHtml`, so text from the stream cannot reach the page unescaped, nor its
 * control, bidi and zero-width characters unseen (SPEC REV-1).
 */
import { visibleText } from '@agentlog/core/read-models';

const entities: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => entities[char] ?? char);
}

const token = Symbol('SafeHtml');

/** A fragment of HTML built by {@link html}: interpolated as it is, never escaped again. */
export class SafeHtml {
  readonly #text: string;

  /** @internal Use {@link html}; the token keeps other code from making one. */
  constructor(text: string, secret: symbol) {
    if (secret !== token) throw new TypeError('SafeHtml is made by the html template only');
    this.#text = text;
  }

  toString(): string {
    return this.#text;
  }
}

/**
 * What can be interpolated: text and numbers (escaped), fragments (kept), lists of those (joined
 * without separator), and `false`/`null`/`undefined` (nothing), for `${cond && markup\`…\`}`.
 */
export type HtmlValue =
  SafeHtml | string | number | false | null | undefined | readonly HtmlValue[];

function render(value: HtmlValue): string {
  if (value === false || value === null || value === undefined) return '';
  if (value instanceof SafeHtml) return value.toString();
  if (Array.isArray(value)) return (value as readonly HtmlValue[]).map(render).join('');
  // Control, bidi and invisible characters become visible escapes before the HTML escaping.
  return escapeHtml(visibleText(String(value)));
}

/**
 * The tagged template: the literal parts are trusted markup, every value is escaped, with its
 * control and invisible characters shown as escapes (`\u202e`).
 */
export function markup(strings: TemplateStringsArray, ...values: readonly HtmlValue[]): SafeHtml {
  let text = strings[0] ?? '';
  values.forEach((value, index) => {
    text += render(value) + (strings[index + 1] ?? '');
  });
  return new SafeHtml(text, token);
}

/** `items` joined with the markup `separator` (a fragment, e.g. `markup\`<br>\``). */
export function joinHtml(items: readonly HtmlValue[], separator: SafeHtml): SafeHtml {
  return markup`${items.flatMap((item, index) => (index === 0 ? [item] : [separator, item]))}`;
}
