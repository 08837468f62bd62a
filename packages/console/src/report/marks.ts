// The marks, times and names every section of the audit page writes the same way.
import type { AgentEvent } from '@agentlog/core';
import type { AuditStatus } from './auditModel.js';
import { markup, type SafeHtml } from './html.js';

/**
 * Marks drawn with characters DejaVu Sans has (✓ ✗ → ■ ▶ ⚠ ·), or with CSS: the pause sign ⏸
 * is not in Debian's default fonts, so `waiting` gets two CSS bars instead.
 */
export const pause = markup`<span class="pause" aria-hidden="true"></span>`;

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
 * The mark of a status: a glyph or CSS mark plus the word, so it reads without colour. An approval
 * no invocation has read yet says so: the call was approved but has not run. A refused call never
 * runs, so it gets no such mark.
 */
export function statusMark(status: AuditStatus, decisionPending = false): SafeHtml {
  return decisionPending && status === 'approved'
    ? markup`${statusMarks[status]} <span class="status waiting">(not run yet)</span>`
    : statusMarks[status];
}

export const at = (event: AgentEvent) =>
  markup`<span class="rev">#${event.metadata.revision}</span> <time datetime="${event.metadata.at}">${readableTime(event.metadata.at)}</time>`;

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

export const callRef = (name: string | undefined, id: string) =>
  markup`<span class="call"><b>${name ?? '(unknown tool)'}</b> <code>${id}</code></span>`;
