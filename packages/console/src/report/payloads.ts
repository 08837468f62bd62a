import type { JsonValue } from '@agentlog/core';
import { canonicalJson, compactJson } from '@agentlog/core/read-models';
import { markup, type SafeHtml } from './html.js';

/**
 * Shows each payload once: the first time, a folded `<details>` (summary line + pretty JSON);
 * every later time the same payload appears, a pointer to where it is shown. Sections are built
 * in page order, so the full payload is always the first one the reader meets.
 */
export class PayloadShelf {
  readonly #places = new Map<string, string>();

  /** Where the page already shows `value` as a payload (key order aside), if it does. */
  placeOf(value: unknown): string | undefined {
    return value === undefined ? undefined : this.#places.get(canonicalJson(value));
  }

  /** The payload folded, or a pointer to its first place; `place` names where this one is. */
  show(payload: JsonValue | undefined, label: string, place: string): SafeHtml {
    if (payload === undefined) return markup``;
    const key = canonicalJson(payload);
    const first = this.#places.get(key);
    if (first !== undefined)
      return markup`<p class="meta payload-ref">${label}: the payload shown in ${first}</p>`;
    this.#places.set(key, place);
    return markup`<details class="payload">
      <summary>${label}: <code>${compactJson(payload, 80)}</code></summary>
      <pre>${JSON.stringify(payload, null, 2)}</pre>
    </details>`;
  }
}
