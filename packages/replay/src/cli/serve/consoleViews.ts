// The console's pages, every one built with the escaping `markup` template (SPEC REV-1).
import type { AgentEvent, AgentState } from '@agentlog/core';
import { callsAwaitingDecision } from '../awaitingDecision.js';
import { statusOf } from '../listCommand.js';
import { auditModel } from '../report/auditModel.js';
import { markup, type HtmlValue, type SafeHtml } from '../report/html.js';
import { PayloadShelf } from '../report/payloads.js';
import {
  decisionsSection,
  outcomeSection,
  timelineSection,
  toolCallsSection,
} from '../report/sections.js';
import { argumentLines } from '../showCommand.js';
import { summarizeArgs } from '../summarizeArgs.js';
import { consolePage, csrfField, type PageFrame } from './consolePage.js';
import type { InboxEntry } from './inboxEntries.js';

/** The path of a run's page (and, with a suffix, of its calls and audit). */
export const runPath = (streamId: string): string => `/runs/${encodeURIComponent(streamId)}`;

/** The path of a call's decide page. */
export const callPath = (streamId: string, toolCallId: string): string =>
  `${runPath(streamId)}/calls/${encodeURIComponent(toolCallId)}`;

/** The sign-in page; `failed` says the last token was not accepted. */
export function loginView(failed: boolean): string {
  return consolePage(
    { title: 'sign in' },
    markup`<h1>agentlog console</h1>
${failed && markup`<p class="notice">That token is not accepted.</p>`}
<form method="post" action="/login" class="decision">
<label for="token">Reviewer token</label>
<input type="password" id="token" name="token" autocomplete="current-password" required>
<p><button type="submit">Sign in</button></p>
</form>`,
  );
}

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
export function inboxView(frame: PageFrame, entries: readonly InboxEntry[], now: number): string {
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
}`,
  );
}

/** The decide page of a call that waits: its arguments in full, and the three decision forms. */
export function decideView(
  frame: PageFrame,
  streamId: string,
  state: AgentState,
  toolCallId: string,
): string {
  const waiting = callsAwaitingDecision(state).find((call) => call.toolCall.id === toolCallId);
  const call = state.toolCalls[toolCallId];
  const head = markup`<h1>${call?.toolCall.name ?? '?'} <span class="rev">${toolCallId}</span></h1>
<p class="meta">in <a href="${runPath(streamId)}">${streamId}</a> at revision ${state.revision}</p>
<h2>Arguments</h2>
<pre id="args">${argumentLines(call?.toolCall.args).join('\n')}</pre>
${waiting?.feedbackPayload !== undefined && markup`<h2>Request</h2><pre>${JSON.stringify(waiting.feedbackPayload, null, 2)}</pre>`}
${waiting?.shadowed === true && markup`<p class="notice">Shadowed (HITL-5): a sibling call of the same answer got an output; approving will not re-run it. Have the model call it again.</p>`}
${waiting?.ambiguous === true && markup`<p class="notice">Ambiguous (TOOL-7): it was started before a crash and may have run.</p>`}`;
  if (waiting === undefined)
    return consolePage(
      frame,
      markup`${head}<p class="notice">This call does not wait for a decision (${call?.status ?? 'unknown'}).</p>`,
    );
  const hidden = markup`${csrfField(frame.csrf)}
<input type="hidden" name="revision" value="${state.revision}">`;
  const action = callPath(streamId, toolCallId);
  return consolePage(
    frame,
    markup`${head}
<h2>Decide</h2>
<form method="post" action="${action}" class="decision" id="approve">${hidden}
<input type="hidden" name="decision" value="approve">
<label for="approve-note">Note (for the audit only; the model never reads it)</label>
<input type="text" id="approve-note" name="note">
<p><button type="submit">Approve</button></p>
</form>
<form method="post" action="${action}" class="decision" id="refuse">${hidden}
<input type="hidden" name="decision" value="refuse">
<label for="refuse-note">Note (for the audit only)</label>
<input type="text" id="refuse-note" name="note">
<label for="refuse-reason">Reason for the model (it reads "This tool call was refused: &lt;reason&gt;")</label>
<input type="text" id="refuse-reason" name="reason">
<p><button type="submit">Refuse</button></p>
</form>
<form method="post" action="${action}" class="decision" id="approve-payload">${hidden}
<input type="hidden" name="decision" value="approve">
<label for="payload">Approve with a JSON payload (HITL-9: handed to tools that read it)</label>
<textarea id="payload" name="payload" rows="5" required></textarea>
<label for="payload-note">Note (for the audit only)</label>
<input type="text" id="payload-note" name="note">
<p><button type="submit">Approve with payload</button></p>
</form>`,
  );
}

/** One stream on the runs page. */
export interface RunRow {
  readonly streamId: string;
  readonly state: AgentState;
  readonly events: number;
}

/** Whether a run needs a person or a worker: a call waits for a decision or for a run. */
export function needsWork(state: AgentState): boolean {
  return callsAwaitingDecision(state).length > 0 || Object.keys(state.feedback).length > 0;
}

/** The runs page: every stream with its status; `filter` names the filter in use. */
export function runsView(frame: PageFrame, rows: readonly RunRow[], filter: string): string {
  const link = (href: string, text: string): SafeHtml =>
    markup`<a href="${href}" class="${href === filter ? 'current' : ''}">${text}</a>`;
  return consolePage(
    frame,
    markup`<h1>Runs</h1>
<p class="filters">${link('/runs', 'all')} ${link('/runs?needs=work', 'needs work')} ${link('/runs?status=running', 'running')} ${link('/runs?status=stopped', 'stopped')} ${link('/runs?status=pending', 'pending')}</p>
<table id="runs"><thead><tr><th>stream</th><th>status</th><th>last event</th><th>events</th><th>waiting</th></tr></thead>
<tbody>${rows.map(
      ({ streamId, state, events }) => markup`<tr>
<td><a href="${runPath(streamId)}">${streamId}</a></td>
<td class="status">${statusOf(state)}</td>
<td class="when">${state.lastEventAt ?? ''}</td>
<td>${events}</td>
<td>${callsAwaitingDecision(state).length}</td>
</tr>`,
    )}</tbody></table>`,
  );
}

/**
 * A run's page: its outcome (the typed result as data), the calls that wait, the decisions, every
 * tool call, the timeline per model step (model, tokens, durations), a live list of new events,
 * and a stop form while it runs.
 */
export function runView(
  frame: PageFrame,
  streamId: string,
  events: AgentEvent[],
  state: AgentState,
): string {
  const model = auditModel({ streamId, source: 'store', events, state });
  const shelf = new PayloadShelf();
  const outcome = outcomeSection(state, events, shelf);
  const decisions = decisionsSection(model, shelf);
  const calls = toolCallsSection(model, shelf);
  const waiting = callsAwaitingDecision(state);
  const stop: HtmlValue =
    state.status === 'running' &&
    markup`<form method="post" action="${runPath(streamId)}/stop" class="decision" id="stop">${csrfField(frame.csrf)}
<label for="stop-reason">Stop this run at its next step (reason)</label>
<input type="text" id="stop-reason" name="reason">
<p><button type="submit">Stop</button></p>
</form>`;
  return consolePage(
    frame,
    markup`<h1>Stream ${streamId}</h1>
<p class="meta">${statusOf(state)} · revision ${state.revision} · ${events.length} events · ${state.runs} run(s) · <a href="${runPath(streamId)}/audit">audit page</a></p>
${stop}
${
  waiting.length > 0 &&
  markup`<section id="waiting"><h2>Waiting for a decision</h2><ul>${waiting.map(
    (call) =>
      markup`<li><a href="${callPath(streamId, call.toolCall.id)}">${call.toolCall.name} ${call.toolCall.id}</a> <code>${summarizeArgs(call.toolCall.args)}</code></li>`,
  )}</ul></section>`
}
${outcome}
${decisions}
${calls}
${timelineSection(model)}
<section><h2>New events</h2><ul id="live" class="events" data-events="${runPath(streamId).replace('/runs/', '/api/runs/')}/events?from=${state.revision + 1}"></ul></section>`,
  );
}
