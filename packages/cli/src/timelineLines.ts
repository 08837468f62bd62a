import type { AgentEvent } from '@agentlog/core';
import { timelineMemory, type TimelineMemory } from '@agentlog/core/read-models';
import { describeEvent } from './describeEvent.js';
import type { Painter } from './painter.js';

/** A timeline and the revisions it does not show, since they only repeat a shown line. */
export interface Timeline {
  readonly lines: string[];
  /**
   * The hidden revisions by the type of their event, in order; the types in the order they were
   * first hidden. Numbers, not an object per revision: a long stream hides a quarter of them.
   */
  readonly hidden: ReadonlyMap<string, readonly number[]>;
}

/**
 * The timeline of a stream: one line per readable step, prefixed with its revision
 * (`#6  → write_changelog <32 lines>`), in the style of the release-notes example.
 */
export function timelineLines(events: readonly AgentEvent[], paint: Painter): string[] {
  return timeline(events, paint).lines;
}

/** {@link timelineLines}, plus the revisions it hides. */
export function timeline(events: readonly AgentEvent[], paint: Painter): Timeline {
  const writer = timelineWriter(events.at(-1)?.metadata.revision ?? 0, paint);
  const lines: string[] = [];
  events.forEach((event, index) => lines.push(...writer.add(event, events[index + 1])));
  return { lines, hidden: writer.hidden };
}

/** A timeline built one event at a time, for a stream read in pages. */
export interface TimelineWriter {
  /** The lines of `event` (none for a hidden one); `next` is the event after it, if any. */
  add(event: AgentEvent, next: AgentEvent | undefined): string[];
  /** The revisions hidden so far, by the type of their event, in order. */
  readonly hidden: Timeline['hidden'];
}

/**
 * A {@link TimelineWriter} for a stream whose last revision is `lastRevision` (it sets the width
 * of the revision column): what it keeps between events is the open tool calls by id, the
 * refusals and the hidden revisions, never the events. A call is forgotten once it is answered
 * and no decision on it waits to be consumed, since no later event of a checked stream (SPEC
 * EVT-4) names it: memory grows with the open calls, not with the stream.
 */
export function timelineWriter(lastRevision: number, paint: Painter): TimelineWriter {
  const memory: TimelineMemory = timelineMemory();
  const width = `#${lastRevision}`.length + 2;
  const hidden = new Map<string, number[]>();
  const forget = callForgetter(memory);
  return {
    hidden,
    add(event, next) {
      const text = describeEvent(event, next, memory, paint);
      forget(event);
      if (text === undefined) {
        // Pushed, not copied: a long stream hides tens of thousands of revisions (linear, issue 21).
        const revisions = hidden.get(event.type);
        if (revisions === undefined) hidden.set(event.type, [event.metadata.revision]);
        else revisions.push(event.metadata.revision);
        return [];
      }
      // A line with data below it (a stop's result) continues under its text, indented.
      const [first = '', ...more] = text.split('\n');
      return [
        `${paint.dim(`#${event.metadata.revision}`.padEnd(width))}${first}`,
        ...more.map((line) => `${' '.repeat(width)}${line}`),
      ];
    },
  };
}

/**
 * What drops a call from the timeline's memory after the event that last names it: its answer,
 * or the consumption of a decision given before its answer. Once answered, a call of a checked
 * stream is named again only by the consumption of such a decision.
 */
function callForgetter(memory: TimelineMemory): (event: AgentEvent) => void {
  const decided = new Set<string>();
  const answeredDecided = new Set<string>();
  const drop = (id: string) => {
    memory.calls.delete(id);
    memory.refusals.delete(id);
  };
  return (event) => {
    switch (event.type) {
      case 'FeedbackReceived':
        decided.add(event.data.toolCallId);
        return;
      case 'FeedbackConsumed': {
        const id = event.data.toolCallId;
        decided.delete(id);
        if (answeredDecided.delete(id)) drop(id);
        return;
      }
      case 'ToolCallCompleted':
      case 'ToolCallFailed': {
        const id = event.data.toolCallId;
        if (decided.has(id)) answeredDecided.add(id);
        else drop(id);
        return;
      }
      default:
        return;
    }
  };
}

const whyHidden: Readonly<Record<string, string>> = {
  UserMessageQueued: 'a queued user text that entered the history at once',
  AssistantMessageAdded: "the assistant message, equal to the model's answer",
};

/**
 * One line naming the revisions a timeline hides, grouped by why
 * (`hidden: #2 a queued user text …; #5, #15 the assistant message …`); `undefined` for none.
 */
export function hiddenLine(hidden: Timeline['hidden']): string | undefined {
  if (hidden.size === 0) return undefined;
  const groups = new Map<string, number[]>();
  for (const [type, revisions] of hidden) {
    const why = whyHidden[type] ?? `${type} events`;
    const group = groups.get(why);
    if (group === undefined) groups.set(why, [...revisions]);
    else for (const revision of revisions) group.push(revision);
  }
  const parts = [...groups].map(
    ([why, revisions]) => `${revisions.map((revision) => `#${revision}`).join(', ')} ${why}`,
  );
  return `hidden: ${parts.join('; ')}`;
}
