// The audit page's timeline: per step its duration, model, tokens and events.
import type { AgentEvent } from '@agentlog/core';
import {
  timelineMemory,
  timelineRow,
  type TimelineMemory,
  type TimelineStyle,
} from '@agentlog/core/read-models';
import type { AuditModel, AuditStep } from './auditModel.js';
import { formatDuration, pause, readableTime } from './marks.js';
import { markup, type SafeHtml } from './html.js';

const classOf: Record<TimelineStyle, string> = {
  plain: '',
  dim: 'meta',
  bold: 'run',
  call: 'call',
  ok: 'completed',
  fail: 'failed',
  wait: 'waiting',
  stop: 'stopped',
};

/**
 * The timeline line of `event` as the CLI's `inspect` says it (the read model `timelineRow`), as
 * HTML: each piece in its class; the pause sign drawn with CSS (DejaVu Sans has no ⏸).
 */
function eventLine(
  event: AgentEvent,
  next: AgentEvent | undefined,
  memory: TimelineMemory,
): SafeHtml | undefined {
  // Each payload is shown once on the page (PayloadShelf): the timeline only names it.
  const row = timelineRow(event, next, memory, { payloads: false });
  if (row === undefined) return undefined;
  return markup`<span class="line">${row.map(({ text, style }) =>
    style === 'plain'
      ? text
      : markup`<span class="${classOf[style]}">${text === '⏸' ? pause : text}</span>`,
  )}</span>`;
}

function eventLines(events: readonly AgentEvent[], memory: TimelineMemory): SafeHtml {
  const lines = events.flatMap((event, index) => {
    const line = eventLine(event, events[index + 1], memory);
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
  // One memory for the whole stream, in order: the prelude, then each step.
  const memory = timelineMemory();
  const prelude = model.prelude.length > 0 ? eventLines(model.prelude, memory) : undefined;
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
        ${eventLines(step.events, memory)}
      </li>`,
  );
  return markup`<section id="timeline">
    <h2>Timeline</h2>
    <p class="totals">
      Totals: <b>${totals.steps}</b> step(s) · <b>${formatDuration(totals.durationMs)}</b>${stopped(totals.stoppedMs)} ·
      <b>${tokens(totals.usage)}</b>
    </p>
    ${
      prelude !== undefined &&
      markup`<div class="step">
        <h3>Before the first answer</h3>
        ${prelude}
      </div>`
    }
    <ol class="steps">
      ${steps}
    </ol>
  </section>`;
}
