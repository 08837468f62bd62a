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
  const memory: TimelineMemory = { calls: new Map(), refusals: new Map() };
  const width = `#${events.at(-1)?.metadata.revision ?? 0}`.length + 2;
  const lines: string[] = [];
  const hidden: { revision: number; type: string }[] = [];
  events.forEach((event, index) => {
    const text = describeEvent(event, events[index + 1], memory, paint);
    if (text === undefined) {
      hidden.push({ revision: event.metadata.revision, type: event.type });
      return;
    }
    // A line with data below it (a stop's result) continues under its text, indented.
    const [first = '', ...more] = text.split('\n');
    lines.push(`${paint.dim(`#${event.metadata.revision}`.padEnd(width))}${first}`);
    for (const line of more) lines.push(`${' '.repeat(width)}${line}`);
  });
  return { lines, hidden };
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
