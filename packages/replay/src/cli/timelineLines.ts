import type { AgentEvent } from '@agentlog/core';
import { describeEvent, type TimelineMemory } from './describeEvent.js';
import type { Painter } from './painter.js';

/** A timeline and the revisions it does not show, since they only repeat a shown line. */
export interface Timeline {
  readonly lines: string[];
  /** The hidden revisions, in order, with the type of their event. */
  readonly hidden: readonly { readonly revision: number; readonly type: string }[];
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
  /** The revisions hidden so far, in order, with the type of their event. */
  readonly hidden: Timeline['hidden'];
}

/**
 * A {@link TimelineWriter} for a stream whose last revision is `lastRevision` (it sets the width
 * of the revision column): what it keeps between events is the tool calls by id, the refusals
 * and the hidden revisions, never the events.
 */
export function timelineWriter(lastRevision: number, paint: Painter): TimelineWriter {
  const memory: TimelineMemory = { calls: new Map(), refusals: new Map() };
  const width = `#${lastRevision}`.length + 2;
  const hidden: { revision: number; type: string }[] = [];
  return {
    hidden,
    add(event, next) {
      const text = describeEvent(event, next, memory, paint);
      if (text === undefined) {
        hidden.push({ revision: event.metadata.revision, type: event.type });
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

const whyHidden: Readonly<Record<string, string>> = {
  UserMessageQueued: 'a queued user text that entered the history at once',
  AssistantMessageAdded: "the assistant message, equal to the model's answer",
};

/**
 * One line naming the revisions a timeline hides, grouped by why
 * (`hidden: #2 a queued user text …; #5, #15 the assistant message …`); `undefined` for none.
 */
export function hiddenLine(hidden: Timeline['hidden']): string | undefined {
  if (hidden.length === 0) return undefined;
  const groups = new Map<string, number[]>();
  for (const { revision, type } of hidden) {
    const why = whyHidden[type] ?? `${type} events`;
    // Pushed, not copied: a long stream hides tens of thousands of revisions (linear, issue 21).
    const revisions = groups.get(why);
    if (revisions === undefined) groups.set(why, [revision]);
    else revisions.push(revision);
  }
  const parts = [...groups].map(
    ([why, revisions]) => `${revisions.map((revision) => `#${revision}`).join(', ')} ${why}`,
  );
  return `hidden: ${parts.join('; ')}`;
}
