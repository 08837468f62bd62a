import type { AgentEvent, StreamEvent } from '@agentlog/core';

/** Events a step records after its tools ran; a stop of that step belongs after all of them. */
const stepEvents = new Set([
  'ToolCallCompleted',
  'ToolCallFailed',
  'FeedbackRequested',
  'FeedbackConsumed',
  'WarningRecorded',
]);

/**
 * Brings a recording made before schema version 2 into today's order. Version 1 recorded a stop
 * that a tool caused as soon as its outcome was known, so the outcomes of later calls of the same
 * batch came after `AgentStopped`; since version 2 a stop lands when its step ends (SPEC STOP-9).
 * Each such stop moves behind the rest of its step, and revisions are numbered again. Every event
 * keeps its data; recordings of version 2 are returned as they are.
 */
export function upgradeRecording(
  recorded: readonly StreamEvent[],
  events: readonly AgentEvent[],
): AgentEvent[] {
  if (!recorded.some((event) => event.metadata.schemaVersion === 1)) return [...events];
  const ordered: AgentEvent[] = [];
  let held: AgentEvent | undefined;
  for (const [index, event] of events.entries()) {
    const old = recorded[index]?.metadata.schemaVersion === 1;
    if (held !== undefined && !stepEvents.has(event.type)) {
      ordered.push(held);
      held = undefined;
    }
    const inStep =
      old && event.type === 'AgentStopped' && stepEvents.has(events[index + 1]?.type ?? '');
    if (inStep) held = event;
    else ordered.push(event);
  }
  if (held !== undefined) ordered.push(held);
  return ordered.map((event, revision) =>
    event.metadata.revision === revision
      ? event
      : { ...event, metadata: { ...event.metadata, revision } },
  );
}
