// The top of the audit page: how the stream ended, and every decision.
import type { AgentEvent, AgentState } from '@agentlog/core';
import type { AuditModel } from './auditModel.js';
import type { PayloadShelf } from './payloads.js';
import { argsSummary, argsView } from './drafts.js';
import { callRef, readableTime } from './marks.js';
import { stopLabel } from './stopLabel.js';
import { markup, type SafeHtml } from './html.js';
import { decidedStop } from '@agentlog/core/read-models';

/** The top of the page: how the stream ended, why, and for a tool's stop, its payload. */
export function outcomeSection(
  state: AgentState,
  events: readonly AgentEvent[],
  shelf: PayloadShelf,
): SafeHtml {
  const reason = state.stopReason;
  if (state.status !== 'stopped' || reason === undefined)
    return markup`<section id="outcome" class="outcome">
      <p class="stop">Not stopped: ${state.status}</p>
    </section>`;
  const stop = events.findLast((event) => event.type === 'AgentStopped');
  const who =
    stop?.data.hook !== undefined
      ? markup` · asked by a <code>${stop.data.hook}</code> hook`
      : stop?.data.by !== undefined && markup` · requested by <b>${stop.data.by}</b>`;
  const detail = (() => {
    switch (reason.kind) {
      case 'requestedByTool':
        return markup`<p>
            The tool ${callRef(reason.toolCall.name, reason.toolCall.id)} ended the run.
          </p>
          ${shelf.show(reason.payload, 'Result', 'the outcome')}`;
      case 'feedbackRequired': {
        const request = shelf.show(reason.payload, 'Request', 'the outcome');
        const call = callRef(reason.toolCall.name, reason.toolCall.id);
        const decided = decidedStop(state);
        // A call decided on since the stop does not wait for a decision any more.
        if (decided === undefined)
          return markup`<p>Waits for a decision on ${call}.</p>
            ${request}`;
        const who = markup`<b>${decided.by ?? '(not recorded)'}</b>`;
        return decided.feedback.kind === 'refused'
          ? markup`<p class="decided-stop">
                ${call} was <span class="status refused">✗ refused</span> by ${who}; the run ended
                there. Nothing waits for a decision.
              </p>
              ${request}`
          : markup`<p class="decided-stop">
                ${call} was <span class="status approved">✓ approved</span> by ${who}; it waits
                for a run to resume it, not for a decision.
              </p>
              ${request}`;
      }
      case 'agentFailed':
        return markup`<p>A tool reported that the task cannot be done.</p>
          ${shelf.show(reason.payload, 'Failure', 'the outcome')}`;
      case 'toolCallsOverLimit':
        return markup`<p>
          ${callRef(reason.toolCall.name, reason.toolCall.id)} failed more often than the retry
          limit allows.
        </p>`;
      case 'error':
        return markup`<pre>${reason.message}</pre>`;
      case 'other':
        return markup`<p>${reason.text}</p>`;
      case 'noNewMessages':
        // Every kind is named: a new one fails `tsc` here instead of showing nothing.
        return markup``;
    }
  })();
  return markup`<section id="outcome" class="outcome">
    <p class="stop">
      Stopped:
      <b>${stopLabel(reason, state.stopCause)}</b>${who}${stop !== undefined && markup` <span class="meta">at <time datetime="${stop.metadata.at}">${readableTime(stop.metadata.at)}</time></span>`}
    </p>
    ${detail}
  </section>`;
}

/** Every decision: who, when, on which call, with which arguments, approved or refused, the note. */
export function decisionsSection(model: AuditModel, shelf: PayloadShelf): SafeHtml {
  if (model.decisions.length === 0)
    return markup`<section id="decisions">
      <h2>Decisions</h2>
      <p>No decisions.</p>
    </section>`;
  const rows = model.decisions.map(({ event, toolCall }) => {
    const { toolCallId, feedback, by, note } = event.data;
    const summary = argsSummary(toolCall?.args, 70);
    const decision =
      feedback.kind === 'approved'
        ? markup`<span class="status approved">✓ approved</span>`
        : markup`<span class="status refused">✗ refused</span>`;
    return markup`<tr class="decision-row">
      <td class="by">${by ?? '(not recorded)'}</td>
      <td class="when">
        <time datetime="${event.metadata.at}">${readableTime(event.metadata.at)}</time>
        <span class="rev">#${event.metadata.revision}</span>
      </td>
      <td>${callRef(toolCall?.name, toolCallId)}</td>
      <td>
        <details class="args">
          <summary><code>${summary}</code></summary>
          ${argsView(toolCall?.args)}
        </details>
      </td>
      <td>
        ${decision}${shelf.show(feedback.payload, 'with', `the decision of ${by ?? 'an unnamed person'} on ${toolCallId}`)}
      </td>
      <td class="note">${note ?? ''}</td>
    </tr>`;
  });
  return markup`<section id="decisions">
    <h2>Decisions</h2>
    <table class="decisions">
      <thead>
        <tr>
          <th>by</th>
          <th>when</th>
          <th>call</th>
          <th>arguments</th>
          <th>decision</th>
          <th>note</th>
        </tr>
      </thead>
      <tbody>
        ${rows}
      </tbody>
    </table>
  </section>`;
}
