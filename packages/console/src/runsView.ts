import {
  callsAwaitingDecision,
  runStatus,
  workColumn,
  type RunSummary,
} from '@agentlog/core/read-models';
import { markup, type SafeHtml } from './report/html.js';
import { consolePage, type PageFrame } from './consolePage.js';
import { runPath } from './consolePaths.js';

/** One stream on the runs page. */
/**
 * The runs page: every stream with its status, and a work column when the store keeps a work
 * index (`indexed`); `filter` names the filter in use.
 */
export function runsView(
  frame: PageFrame,
  rows: readonly RunSummary[],
  filter: string,
  indexed = false,
): string {
  const link = (href: string, text: string): SafeHtml =>
    markup`<a href="${href}" class="${href === filter ? 'current' : ''}">${text}</a>`;
  return consolePage(
    frame,
    markup`<h1>Runs</h1>
<p class="filters">${link('/runs', 'all')} ${link('/runs?needs=work', 'needs work')} ${link('/runs?status=running', 'running')} ${link('/runs?status=stopped', 'stopped')} ${link('/runs?status=pending', 'pending')}</p>
<table id="runs"><thead><tr><th>stream</th><th>status</th><th>last event</th><th>events</th><th>waiting</th>${indexed && markup`<th>work</th>`}</tr></thead>
<tbody>${rows.map(
      ({ streamId, state, events, work }) => markup`<tr>
<td><a href="${runPath(streamId)}">${streamId}</a></td>
<td class="status">${runStatus(state)}</td>
<td class="when">${state.lastEventAt ?? ''}</td>
<td>${events}</td>
<td>${callsAwaitingDecision(state).length}</td>
${indexed && markup`<td class="work">${workColumn(work)}</td>`}
</tr>`,
    )}</tbody></table>`,
  );
}
