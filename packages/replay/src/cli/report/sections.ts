import type { AgentEvent, AgentState, ChatMessage, ToolOutput } from '@agentlog/core';
import { clockTime, oneLine, quoted, summarizeArgs } from '../summarizeArgs.js';
import type { AuditCall, AuditModel, AuditStatus, AuditStep } from './auditModel.js';
import { argsSummary, argsView, revisionDiff } from './drafts.js';
import { joinHtml, markup, type SafeHtml } from './html.js';
import type { PayloadShelf } from './payloads.js';

/**
 * Marks drawn with characters DejaVu Sans has (✓ ✗ → ■ ▶ ⚠ ·), or with CSS: the pause sign ⏸
 * is not in Debian's default fonts, so `waiting` gets two CSS bars instead.
 */
const pause = markup`<span class="pause" aria-hidden="true"></span>`;

const statusMarks: Record<AuditStatus, SafeHtml> = {
  refused: markup`<span class="status refused">✗ refused</span>`,
  approved: markup`<span class="status approved">✓ approved</span>`,
  completed: markup`<span class="status completed">✓ completed</span>`,
  failed: markup`<span class="status failed">✗ failed</span>`,
  waiting: markup`<span class="status waiting">${pause} waiting</span>`,
  ambiguous: markup`<span class="status ambiguous">? ambiguous</span>`,
  started: markup`<span class="status started">→ started</span>`,
  open: markup`<span class="status open">· not started</span>`,
};

/**
 * The mark of a status: a glyph or CSS mark plus the word, so it reads without colour. A decision
 * no invocation has read yet says so: the call was decided on but has not run.
 */
export function statusMark(status: AuditStatus, decisionPending = false): SafeHtml {
  return decisionPending && (status === 'approved' || status === 'refused')
    ? markup`${statusMarks[status]} <span class="status waiting">(not run yet)</span>`
    : statusMarks[status];
}

const at = (event: AgentEvent) =>
  markup`<span class="rev">#${event.metadata.revision}</span> <time>${event.metadata.at}</time>`;

/** `850 ms`, `12.3 s`, `4 min 05 s`, `2 h 03 min`. */
export function formatDuration(ms: number | undefined): string {
  if (ms === undefined) return '?';
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 3600)
    return `${Math.floor(seconds / 60)} min ${String(seconds % 60).padStart(2, '0')} s`;
  const minutes = Math.round(seconds / 60);
  return `${Math.floor(minutes / 60)} h ${String(minutes % 60).padStart(2, '0')} min`;
}

/** `2026-12-01 10:00:12 UTC` for an ISO time in UTC; any other text as it is. */
export function readableTime(iso: string): string {
  const match = /^(\d{4}-\d\d-\d\d)T(\d\d:\d\d:\d\d)(\.\d+)?Z$/.exec(iso);
  return match === null ? iso : `${match[1]} ${match[2]} UTC`;
}

const callRef = (name: string | undefined, id: string) =>
  markup`<span class="call"><b>${name ?? '(unknown tool)'}</b> <code>${id}</code></span>`;

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
      case 'feedbackRequired':
        return markup`<p>
            Waits for a decision on ${callRef(reason.toolCall.name, reason.toolCall.id)}.
          </p>
          ${shelf.show(reason.payload, 'Request', 'the outcome')}`;
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
      default:
        return markup``;
    }
  })();
  return markup`<section id="outcome" class="outcome">
    <p class="stop">
      Stopped:
      <b>${reason.kind}</b>
      (${state.stopCause ?? '?'})${who}${stop !== undefined && markup` <span class="meta">at ${stop.metadata.at}</span>`}
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

function outputLine(output: ToolOutput): string {
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

/** One short timeline line for `event`, or `undefined` for an event that adds nothing readable. */
function eventLine(
  event: AgentEvent,
  next: AgentEvent | undefined,
  model: AuditModel,
): SafeHtml | undefined {
  const call = (id: string) => model.calls.find((entry) => entry.toolCall.id === id);
  const name = (id: string) => call(id)?.toolCall.name ?? '(unknown tool)';
  switch (event.type) {
    case 'SystemPromptAdded':
      return markup`system: ${quoted(event.data.text)}`;
    case 'RunStarted':
      return markup`<b>▶ ${event.data.mode}</b
        >${event.data.input !== undefined && ` ${quoted(event.data.input)}`}`;
    case 'UserMessageQueued':
      return next?.type === 'UserMessageAdded' && next.data.text === event.data.text
        ? undefined
        : markup`user (queued): ${quoted(event.data.text)}`;
    case 'UserMessageAdded':
      return markup`user: ${quoted(event.data.text)}`;
    case 'SummaryAdded':
      return markup`summary: ${quoted(event.data.text)}`;
    case 'ModelResponded': {
      const { message, toolCalls } = event.data.response;
      const parts = [
        message !== undefined && message !== '' && quoted(message),
        toolCalls.length > 0 &&
          `${toolCalls.length} tool call(s): ${toolCalls.map((c) => c.name).join(', ')}`,
      ].filter((part) => part !== false);
      return markup`model: ${parts.length === 0 ? '(empty answer)' : parts.join(' + ')}`;
    }
    case 'AssistantMessageAdded':
      return undefined;
    case 'ToolCallStarted': {
      const args = summarizeArgs(event.data.toolCall.args);
      return markup`→ ${event.data.toolCall.name}${args !== '' && ` ${args}`}`;
    }
    case 'ToolCallCompleted': {
      const entry = call(event.data.toolCallId);
      const refused = entry?.status === 'refused';
      const mark =
        refused || event.data.output.kind === 'fail'
          ? '✗'
          : event.data.output.kind === 'text'
            ? '✓'
            : '■';
      return markup`${mark} ${name(event.data.toolCallId)}${refused && ' (refused)'}:
      ${outputLine(event.data.output)}`;
    }
    case 'ToolCallFailed':
      return markup`✗ ${name(event.data.toolCallId)}:
      ${oneLine(event.data.error.split('\n')[0] ?? '', 80)} (failure ${event.data.failureCount})`;
    case 'FeedbackRequested':
      return markup`${pause} waiting for approval: ${event.data.toolCall.name}
      (${event.data.toolCall.id})${event.data.ambiguous === true && ' — ambiguous: started before a crash'}`;
    case 'FeedbackReceived': {
      const { feedback, by, note, toolCallId } = event.data;
      return markup`${feedback.kind === 'approved' ? '✓' : '✗'}
      ${feedback.kind}${by !== undefined && ` by ${by}`}${note !== undefined && ` — ${quoted(note)}`}
      · ${name(toolCallId)} (${toolCallId})`;
    }
    case 'FeedbackConsumed':
      return markup`<span class="meta"
        >· decision on ${name(event.data.toolCallId)} (${event.data.toolCallId}) read</span
      >`;
    case 'AgentStopped':
      return markup`■ stopped: ${event.data.reason.kind} (${event.data.cause})`;
    case 'WarningRecorded':
      return markup`⚠ ${event.data.message}`;
    case 'StopRequested':
      return markup`■ stop requested${event.data.by !== undefined && ` by ${event.data.by}`}:
      ${event.data.reason}`;
    case 'StreamForked':
      return markup`forked from ${event.data.fromStream} at revision ${event.data.atRevision}`;
  }
}

function eventLines(events: readonly AgentEvent[], model: AuditModel): SafeHtml {
  const lines = events.flatMap((event, index) => {
    const line = eventLine(event, events[index + 1], model);
    return line === undefined
      ? []
      : [
          markup`<li>
            <span class="rev">#${event.metadata.revision}</span>
            <time>${clockTime(event.metadata.at)}</time> ${line}
          </li>`,
        ];
  });
  return markup`<ol class="events">
    ${lines}
  </ol>`;
}

const tokens = (usage: AuditStep['usage']) =>
  usage === undefined
    ? 'tokens not reported'
    : `${usage.totalTokens} tokens (${usage.promptTokens} prompt + ${usage.completionTokens} completion)`;

/** ` (3.00 s of it stopped)`: the time the agent waited, stopped, for a person or a new run. */
const stopped = (ms: number | undefined) =>
  ms === undefined ? '' : ` (${formatDuration(ms)} of it stopped)`;

/** The steps (model answer to next answer): duration, model, tokens, events; and the run totals. */
export function timelineSection(model: AuditModel): SafeHtml {
  const { totals } = model;
  const steps = model.steps.map(
    (step) =>
      markup`<li class="step">
        <h3>
          Step ${step.index}
          <span class="meta"
            >· ${formatDuration(step.durationMs)}${stopped(step.stoppedMs)} · ${step.model ?? 'model not reported'} ·
            ${tokens(step.usage)}</span
          >
        </h3>
        ${eventLines(step.events, model)}
      </li>`,
  );
  return markup`<section id="timeline">
    <h2>Timeline</h2>
    <p class="totals">
      Totals: <b>${totals.steps}</b> step(s) · <b>${formatDuration(totals.durationMs)}</b>${stopped(totals.stoppedMs)} ·
      <b>${tokens(totals.usage)}</b>
    </p>
    ${
      model.prelude.length > 0 &&
      markup`<div class="step">
        <h3>Before the first answer</h3>
        ${eventLines(model.prelude, model)}
      </div>`
    }
    <ol class="steps">
      ${steps}
    </ol>
  </section>`;
}

/** The history the model saw; tool outputs are under their call, not repeated here. */
export function conversationSection(history: readonly ChatMessage[]): SafeHtml {
  const items = history.map((message) => {
    switch (message.role) {
      case 'system':
      case 'user':
      case 'summary':
        return markup`<li class="msg ${message.role}">
          <b>${message.role}</b>
          <pre class="text">${message.text}</pre>
        </li>`;
      case 'assistant':
        return markup`<li class="msg assistant">
          <b>assistant</b
          >${message.text !== undefined && markup`<pre class="text">${message.text}</pre>`}${message.refusal !== undefined && markup`<p class="warn">refusal: ${message.refusal}</p>`}${message.toolCalls.map((call) => markup`<div>→ ${callRef(call.name, call.id)}</div>`)}
        </li>`;
      case 'tool':
        return markup`<li class="msg tool">
          <b>tool</b> output of ${callRef(message.toolCall.name, message.toolCall.id)}
          <span class="meta">(${message.output.kind}; under Tool calls)</span>
        </li>`;
    }
  });
  return markup`<section id="conversation">
    <h2>Conversation</h2>
    <ol class="messages">
      ${items}
    </ol>
  </section>`;
}

/** The warnings, and every stop with its reason and cause. */
export function warningsAndStopsSection(events: readonly AgentEvent[]): SafeHtml {
  const warnings = events.flatMap((event) =>
    event.type === 'WarningRecorded'
      ? [
          markup`<li>
            ${at(event)}
            <b>${event.data.code}</b
            >${event.data.toolCallId !== undefined && ` (${event.data.toolCallId})`}:
            ${event.data.message}
          </li>`,
        ]
      : [],
  );
  const stops = events.flatMap((event) => {
    if (event.type !== 'AgentStopped') return [];
    const { reason, cause } = event.data;
    const target =
      'toolCall' in reason
        ? markup` · ${callRef(reason.toolCall.name, reason.toolCall.id)}`
        : markup``;
    return [markup`<li>${at(event)} <b>${reason.kind}</b> (${cause})${target}</li>`];
  });
  const list = (items: SafeHtml[], none: string) =>
    items.length === 0
      ? markup`<p>${none}</p>`
      : markup`<ul>
          ${items}
        </ul>`;
  return markup`<section id="warnings">
      <h2>Warnings</h2>
      ${list(warnings, 'No warnings.')}
    </section>
    <section id="stops">
      <h2>Stops</h2>
      ${list(stops, 'The agent never stopped.')}
    </section>`;
}
