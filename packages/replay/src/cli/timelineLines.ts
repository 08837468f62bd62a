import type { AgentEvent } from '@agentlog/core';
import { describeEvent, type TimelineMemory } from './describeEvent.js';
import type { Painter } from './painter.js';

/**
 * The timeline of a stream: one line per readable step, prefixed with its revision
 * (`#6  → write_changelog <32 lines>`), in the style of the release-notes example.
 */
export function timelineLines(events: readonly AgentEvent[], paint: Painter): string[] {
  const memory: TimelineMemory = { calls: new Map() };
  const width = `#${events.at(-1)?.metadata.revision ?? 0}`.length + 2;
  const lines: string[] = [];
  events.forEach((event, index) => {
    const text = describeEvent(event, events[index + 1], memory, paint);
    if (text !== undefined)
      lines.push(`${paint.dim(`#${event.metadata.revision}`.padEnd(width))}${text}`);
  });
  return lines;
}
