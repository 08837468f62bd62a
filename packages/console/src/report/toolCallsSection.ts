// The audit page's tool calls: each with its honest status, arguments and outputs.
import type { AuditCall, AuditModel } from './auditModel.js';
import type { PayloadShelf } from './payloads.js';
import type { ToolOutput } from '@agentlog/core';
import { argsSummary, argsView, revisionDiff } from './drafts.js';
import { at, callRef, statusMark } from './marks.js';
import { joinHtml, markup, type SafeHtml } from './html.js';
import { oneLine, quoted } from '@agentlog/core/read-models';

function outputView(call: AuditCall, output: ToolOutput, shelf: PayloadShelf): SafeHtml {
  const place = `tool call ${call.toolCall.id}`;
  switch (output.kind) {
    case 'text':
      return markup`${call.status === 'refused' && markup`<span class="meta">refusal text: </span>`}
        <pre class="text">${output.text}</pre>`;
    case 'fail':
      return markup`<span class="meta">failure text: </span>
        <pre class="text">${output.text}</pre>`;
    case 'stop':
      return markup`<span class="meta">stop</span>${shelf.show(output.payload, 'Payload', place)}`;
    case 'agentFailed':
      return markup`<span class="meta">agent failed</span
        >${shelf.show(output.payload, 'Payload', place)}`;
    case 'feedbackRequired':
      return markup`<span class="meta">feedback required</span
        >${shelf.show(output.payload, 'Payload', place)}`;
  }
}

function callView(call: AuditCall, shelf: PayloadShelf): SafeHtml {
  const { toolCall } = call;
  const outcomes = call.outcomes.map((outcome) =>
    outcome.kind === 'output'
      ? markup`<li>${at(outcome.event)} ${outputView(call, outcome.output, shelf)}</li>`
      : markup`<li>
          ${at(outcome.event)} <span class="meta">failed (failure ${outcome.failureCount})</span>
          <pre class="text">${outcome.error}</pre>
        </li>`,
  );
  const decided = call.decisions.map(
    ({ event }) =>
      markup`<li>
        ${at(event)} ${event.data.feedback.kind} by
        <b>${event.data.by ?? '(not recorded)'}</b
        >${event.data.note !== undefined && markup` — ${quoted(event.data.note, 80)}`}
      </li>`,
  );
  const notes = [
    call.decisionPending &&
      markup`<span class="meta">decision recorded, not yet read by the tool</span>`,
    call.shadowed && markup`<span class="warn">approval shadowed by a sibling (HITL-5)</span>`,
    call.status === 'ambiguous' &&
      markup`<span class="warn"
        >started before a crash, never answered: the loop asks before running it again
        (TOOL-7)</span
      >`,
  ].filter((note) => note !== false);
  const revises = call.revises;
  // A stop tool's arguments are its payload, shown above: folded. A revision shows its diff.
  const stops = call.outcomes.some(
    (outcome) =>
      outcome.kind === 'output' &&
      (outcome.output.kind === 'stop' || outcome.output.kind === 'agentFailed'),
  );
  const unfold = revises === undefined && !stops;
  // A stop tool whose payload is its arguments: they are shown once, as that payload.
  const samePayload = stops ? shelf.placeOf(parsedArgs(toolCall.args)) : undefined;
  return markup`<article class="tool-call" id="call-${toolCall.id}">
    <h3>
      ${callRef(toolCall.name, toolCall.id)} ${statusMark(call.status, call.decisionPending)}
      <span class="meta">${call.invocations} invocation(s)</span>
    </h3>
    ${notes.length > 0 && markup`<p>${joinHtml(notes, markup` · `)}</p>`}${
      revises !== undefined &&
      markup`<div class="revision">
        <p>
          Revision of the refused call ${callRef(revises.toolCall.name, revises.toolCall.id)}: lines
          removed <span class="removed">-</span>, added <span class="added">+</span>
        </p>
        ${revisionDiff(revises.toolCall.args, toolCall.args)}
      </div>`
    }
    ${
      samePayload === undefined
        ? markup`<details class="args" ${unfold && markup`open`}>
            <summary>Arguments <code>${argsSummary(toolCall.args, 90)}</code></summary>
            ${argsView(toolCall.args)}
          </details>`
        : markup`<p class="meta payload-ref">Arguments: the payload shown in ${samePayload}</p>`
    }
    ${shelf.show(call.requestPayload, 'Approval request', place(call))}${
      decided.length > 0 &&
      markup`<ul class="decided">
        ${decided}
      </ul>`
    }${
      outcomes.length > 0 &&
      markup`<ul class="outcomes">
        ${outcomes}
      </ul>`
    }
  </article>`;
}

function parsedArgs(args: string | undefined): unknown {
  try {
    return args === undefined ? undefined : JSON.parse(args);
  } catch {
    return undefined;
  }
}

const place = (call: AuditCall) => `tool call ${call.toolCall.id}`;

/** Every tool call with its honest status, arguments (drafts as text, revisions as diffs) and outputs. */
export function toolCallsSection(model: AuditModel, shelf: PayloadShelf): SafeHtml {
  return markup`<section id="tool-calls">
    <h2>Tool calls</h2>
    ${
      model.calls.length === 0
        ? markup`<p>No tool calls.</p>`
        : model.calls.map((call) => callView(call, shelf))
    }
  </section>`;
}

export function outputLine(output: ToolOutput): string {
  switch (output.kind) {
    case 'text':
    case 'fail':
      return oneLine(output.text, 80);
    case 'stop':
      return 'stop (payload above)';
    case 'agentFailed':
      return 'agent failed (payload above)';
    case 'feedbackRequired':
      return 'feedback required';
  }
}
