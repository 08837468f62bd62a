import type { AgentEvent } from '@agentlog/core';
import {
  timelineRow,
  type TimelineMemory,
  type TimelineSegment,
  type TimelineStyle,
} from '@agentlog/core/read-models';
import type { Painter } from './painter.js';

/**
 * One timeline line for `event` (without its revision) as `inspect` prints it: the read model's
 * row ({@link timelineRow}), painted for a terminal; `undefined` for an event that adds nothing
 * readable. `next` is the following event.
 */
export function describeEvent(
  event: AgentEvent,
  next: AgentEvent | undefined,
  memory: TimelineMemory,
  paint: Painter,
): string | undefined {
  return timelineRow(event, next, memory)
    ?.map((segment) => paintSegment(segment, paint))
    .join('');
}

const colours: Record<TimelineStyle, keyof Omit<Painter, 'enabled'> | undefined> = {
  plain: undefined,
  dim: 'dim',
  bold: 'bold',
  call: 'cyan',
  ok: 'green',
  fail: 'red',
  wait: 'yellow',
  stop: 'magenta',
};

function paintSegment({ text, style }: TimelineSegment, paint: Painter): string {
  const colour = colours[style];
  return colour === undefined ? text : paint[colour](text);
}
