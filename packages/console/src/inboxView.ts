import { markup, type SafeHtml } from './report/html.js';
import { summarizeArgs } from '@agentlog/core/read-models';
import { consolePage, type PageFrame } from './consolePage.js';
import { callPath, runPath } from './consolePaths.js';
import type { UnreadableStream } from '@agentlog/core/read-models';
import type { InboxEntry } from './inboxEntries.js';

/** How long ago `since` was, from `now`: `3 min`, `2 h 5 min`, `4 d 1 h`. */
export function ageOf(since: string | undefined, now: number): string {
  if (since === undefined) return '?';
  const minutes = Math.max(0, Math.floor((now - Date.parse(since)) / 60_000));
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ${minutes % 60} min`;
  return `${Math.floor(hours / 24)} d ${hours % 24} h`;
}

/** The inbox: every call waiting for a decision, oldest first. */
export function inboxView(
  frame: PageFrame,
  inbox: {
    readonly entries: readonly InboxEntry[];
    readonly unreadable: readonly UnreadableStream[];
  },
  now: number,
): string {
  const { entries, unreadable } = inbox;
  const rows = entries.map(
    (entry) => markup`<tr>
<td><a href="${runPath(entry.streamId)}">${entry.streamId}</a></td>
<td><code>${entry.tool}</code> <span class="rev">${entry.toolCallId}</span>${entry.shadowed === true && markup` <span class="warn">shadowed (HITL-5)</span>`}${entry.ambiguous === true && markup` <span class="warn">ambiguous (TOOL-7)</span>`}</td>
<td><code>${summarizeArgs(entry.args) || '-'}</code></td>
<td class="when" title="${entry.since ?? ''}">${ageOf(entry.since, now)}</td>
<td><a href="${callPath(entry.streamId, entry.toolCallId)}">decide</a></td>
</tr>`,
  );
  return consolePage(
    frame,
    markup`<h1>Inbox</h1>
${
  entries.length === 0
    ? markup`<p id="empty">No tool call waits for a decision.</p>`
    : markup`<table id="inbox"><thead><tr><th>stream</th><th>tool</th><th>arguments</th><th>waiting</th><th></th></tr></thead>
<tbody>${rows}</tbody></table>`
}${unreadableList(unreadable)}`,
  );
}

/** The streams the inbox could not read, each with why, so none of their calls is silently missed. */
function unreadableList(unreadable: readonly UnreadableStream[]): SafeHtml | string {
  if (unreadable.length === 0) return '';
  return markup`<section id="unreadable"><h2>Streams that could not be read</h2><ul>${unreadable.map(
    ({ streamId, error }) =>
      markup`<li><a href="${runPath(streamId)}">${streamId}</a>: ${error.message.split('\n')[0] ?? ''}</li>`,
  )}</ul></section>`;
}
