import type { AgentEvent, AgentState } from '@agentlog/core';
import { callsAwaitingDecision, runStatus, summarizeArgs } from '@agentlog/core/read-models';
import { auditModel } from './report/auditModel.js';
import { markup, type HtmlValue } from './report/html.js';
import { PayloadShelf } from './report/payloads.js';
import {
  decisionsSection,
  outcomeSection,
  timelineSection,
  toolCallsSection,
} from './report/sections.js';
import { consolePage, csrfField, type PageFrame } from './consolePage.js';
import { callPath, runPath } from './consolePaths.js';

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
<p class="meta">${runStatus(state)} · revision ${state.revision} · ${events.length} events · ${state.runs} run(s) · <a href="${runPath(streamId)}/audit">audit page</a></p>
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
