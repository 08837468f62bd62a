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
 * Brings a recording of an older schema into today's order (the upcaster of a recording, SPEC
 * EVT-5), then numbers the revisions again. Every event keeps its data.
 * - Version 1 recorded a stop that a tool caused as soon as its outcome was known, so the outcomes
 *   of later calls of the same batch came after `AgentStopped`; since version 2 a stop lands when
 *   its step ends (SPEC STOP-9). Each such stop moves behind the rest of its step.
 * - Before version 4 a stop the caller or a hook asked for was recorded only by its
 *   `AgentStopped`. Since version 4 every stop request is an input event (SPEC EVT-7): a
 *   `StopRequested` is put right before each such stop, where the run honoured it. A hook's
 *   request made mid-step (in `afterTool`, say) is recorded today where the hook ran, so a
 *   pre-version-4 recording of one shows a divergence at it; re-recording the session fixes it.
 */
export function upgradeRecording(
  recorded: readonly StreamEvent[],
  events: readonly AgentEvent[],
): AgentEvent[] {
  const versions = recorded.map((event) => event.metadata.schemaVersion);
  if (versions.every((version) => version >= 4)) return [...events];
  const ordered = versions.includes(1) ? stopsAfterTheirStep(versions, events) : [...events];
  return renumbered(withStopRequests(ordered));
}

function stopsAfterTheirStep(
  versions: readonly number[],
  events: readonly AgentEvent[],
): AgentEvent[] {
  const ordered: AgentEvent[] = [];
  let held: AgentEvent | undefined;
  for (const [index, event] of events.entries()) {
    const old = versions[index] === 1;
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
  return ordered;
}

/** Puts a `StopRequested` before each caller's or hook's stop that has none since the last stop. */
function withStopRequests(events: readonly AgentEvent[]): AgentEvent[] {
  const upgraded: AgentEvent[] = [];
  let requested = false;
  for (const event of events) {
    if (event.type === 'StopRequested') requested = true;
    if (event.type === 'AgentStopped') {
      const { reason, cause, hook, by } = event.data;
      if (!requested && cause === 'stoppedByCaller' && reason.kind === 'other') {
        upgraded.push({
          type: 'StopRequested',
          data: {
            reason: reason.text,
            ...(by === undefined ? {} : { by }),
            ...(hook === undefined ? {} : { hook }),
          },
          metadata: { ...event.metadata, eventId: `${event.metadata.eventId}-request` },
        });
      }
      requested = false;
    }
    upgraded.push(event);
  }
  return upgraded;
}

function renumbered(events: readonly AgentEvent[]): AgentEvent[] {
  return events.map((event, revision) =>
    event.metadata.revision === revision
      ? event
      : { ...event, metadata: { ...event.metadata, revision } },
  );
}
