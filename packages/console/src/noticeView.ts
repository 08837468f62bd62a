import { markup } from './report/html.js';
import { consolePage, type PageFrame } from './consolePage.js';

/** A page with one message: a refusal (REV-4) or what was done, and where to go next. */
export function noticeView(
  frame: PageFrame,
  message: string,
  links: readonly (readonly [string, string])[],
  done = false,
): string {
  return consolePage(
    frame,
    markup`<p class="${done ? 'notice done' : 'notice'}">${message}</p>
<p>${links.map(([href, text]) => markup`<a href="${href}">${text}</a> `)}</p>`,
  );
}
