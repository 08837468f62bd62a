// The audit page's timeline: per step its duration, model, tokens and events.
import { stopLabel } from './stopLabel.js';
import type { AgentEvent } from '@agentlog/core';
import {
  approvalVerdictText,
  decisionScopeText,
  oneLine,
  quoted,
  summarizeArgs,
} from '@agentlog/core/read-models';
import type { AuditModel, AuditStep } from './auditModel.js';
import { formatDuration, pause, readableTime } from './marks.js';
import { markup, type SafeHtml } from './html.js';
import { outputLine } from './toolCallsSection.js';

/** One short timeline line for `event`, or `undefined` for an event that adds nothing readable. */
function eventLine(
  event: AgentEvent,
  next: AgentEvent | undefined,
  model: AuditModel,
): SafeHtml | undefined {
  const call = (id: string) => model.callsById.get(id);
  const name = (id: string) => call(id)?.toolCall.name ?? '(unknown tool)';
  switch (event.type) {
    case 'SystemPromptAdded':
      return markup`system: ${quoted(event.data.text)}`;
    case 'RunStarted':
      return markup`<b>▶ ${event.data.mode}</b
        >${event.data.input !== undefined && ` ${quoted(event.data.input)}`}${
          event.data.worker !== undefined &&
          ` — run started by worker ${event.data.worker.id} on host ${event.data.worker.host}`
        }`;
    case 'RunRequested':
      return markup`⇢ run requested for agent ${event.data.agent}${
        event.data.by !== undefined && ` by ${event.data.by}`
      }${event.data.input !== undefined && `: ${quoted(event.data.input)}`}`;
    case 'RunReleased':
      return markup`⇠ released by worker ${event.data.worker.id} on host
      ${event.data.worker.host}${event.data.reason !== undefined && `: ${event.data.reason}`}`;
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
      const verdict = approvalVerdictText(event.data.approval);
      return markup`→ ${event.data.toolCall.name}${args !== '' && ` ${args}`}${verdict !== undefined && ` — ${verdict}`}`;
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
      const { feedback, by, note, toolCallId, scope } = event.data;
      return markup`${feedback.kind === 'approved' ? '✓' : '✗'}
      ${feedback.kind}${decisionScopeText(scope)}${by !== undefined && ` by ${by}`}${note !== undefined && ` — ${quoted(note)}`}
      · ${name(toolCallId)} (${toolCallId})`;
    }
    case 'FeedbackConsumed':
      return markup`<span class="meta"
        >· decision on ${name(event.data.toolCallId)} (${event.data.toolCallId}) read</span
      >`;
    case 'AgentStopped':
      return markup`■ ${stopLabel(event.data.reason, event.data.cause)}`;
    case 'WarningRecorded':
      return markup`⚠ ${event.data.message}`;
    case 'StopRequested':
      return markup`■ stop requested${event.data.by !== undefined && ` by ${event.data.by}`}${event.data.hook !== undefined && ` from the ${event.data.hook} hook`}:
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
            <time datetime="${event.metadata.at}">${readableTime(event.metadata.at)}</time> ${line}
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
