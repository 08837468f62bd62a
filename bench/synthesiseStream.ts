import type { AgentEvent } from '@agentlog/core';

/**
 * A long valid stream of the template's shape, as parsed objects: the template's opening events,
 * its second ping step repeated with fresh tool-call ids, event ids, times and revisions, then its
 * closing text answer. Its length is within one step of `size`; read it from the result.
 */
export function synthesiseStream(template: readonly AgentEvent[], size: number): AgentEvent[] {
  const responses = template.flatMap((event, index) =>
    event.type === 'ModelResponded' ? [index] : [],
  );
  const [first, second, third] = responses;
  const closing = responses.at(-1);
  if (first === undefined || second === undefined || third === undefined || closing === undefined) {
    throw new Error('synthesiseStream: the template needs at least two ping steps');
  }
  const opening = template.slice(0, first);
  const step = template.slice(second, third);
  const callId = step.flatMap((event) =>
    event.type === 'ToolCallCompleted' ? [event.data.toolCallId] : [],
  )[0];
  if (callId === undefined)
    throw new Error('synthesiseStream: the template step has no tool output');
  const ending = template.slice(closing);
  const steps = Math.max(1, Math.round((size - opening.length - ending.length) / step.length));
  const events: AgentEvent[] = [];
  const push = (event: AgentEvent, rename: (text: string) => string) => {
    const revision = events.length;
    const copy = renamed(event, rename) as AgentEvent;
    events.push({
      ...copy,
      metadata: {
        ...copy.metadata,
        eventId: `synth-${revision}`,
        at: new Date(Date.UTC(2026, 0, 1) + revision).toISOString(),
        revision,
      },
    });
  };
  const same = (text: string) => text;
  for (const event of opening) push(event, same);
  for (let index = 0; index < steps; index += 1) {
    const fresh = `synth-call-${index}`;
    const suffix = `:${callId}`;
    for (const event of step)
      push(event, (text) =>
        text === callId
          ? fresh
          : text.endsWith(suffix)
            ? `${text.slice(0, -callId.length)}${fresh}`
            : text,
      );
  }
  for (const event of ending) push(event, same);
  return events;
}

/** A deep copy of plain JSON `value` with every string passed through `rename`. */
function renamed(value: unknown, rename: (text: string) => string): unknown {
  if (typeof value === 'string') return rename(value);
  if (Array.isArray(value)) return value.map((item) => renamed(item, rename));
  if (value !== null && typeof value === 'object') {
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) copy[key] = renamed(item, rename);
    return copy;
  }
  return value;
}
