import type { AgentEvent, PendingEvent } from '@agentlog/core';
import { isForeignEventType, type RecordedInputs } from '@agentlog/core/replay-kit';

/**
 * What a recording says others wrote while its runs worked (SPEC RPL-5, EVT-7): decisions and
 * stop requests inside a run, by revision, so the replayed run takes each in where the recorded
 * one met it. A stop a hook requested is not among them: the replayed hook requests it again.
 * Outside a run such events are the caller's commands, which the replay gives as commands.
 */
export function recordedInputs(
  events: readonly AgentEvent[],
  fromRevision: number,
): RecordedInputs {
  const due = new Map<number, PendingEvent>();
  let running = false;
  for (const event of events) {
    if (event.type === 'RunStarted') running = true;
    if (running && event.metadata.revision >= fromRevision && isRunInput(event)) {
      due.set(event.metadata.revision, { type: event.type, data: event.data } as PendingEvent);
    }
    if (event.type === 'AgentStopped') running = false;
  }
  const answeredAfter = answeredAfterOf(
    due,
    new Map(events.map((event) => [event.metadata.revision, event.type])),
  );
  return (revision, moment) => {
    // No decision saw an input recorded right before a model's answer (it would have spared the
    // model): it arrived while the model answered, and goes in with the answer.
    if (moment === 'decision' && answeredAfter(revision)) return [];
    const taken: PendingEvent[] = [];
    for (let next = revision; due.has(next); next += 1) {
      taken.push(due.get(next) as PendingEvent);
      due.delete(next);
    }
    return taken;
  };
}

/** Whether the inputs due at `revision` are followed, in the recording, by a model's answer. */
function answeredAfterOf(
  due: ReadonlyMap<number, PendingEvent>,
  typeAt: ReadonlyMap<number, string>,
) {
  return (revision: number): boolean => {
    let next = revision;
    while (due.has(next)) next += 1;
    return next > revision && typeAt.get(next) === 'ModelResponded';
  };
}

/** An event another process or the caller wrote during a run, not one a hook asked for. */
export function isRunInput(event: AgentEvent): boolean {
  if (!isForeignEventType(event.type)) return false;
  return event.type !== 'StopRequested' || event.data.hook === undefined;
}
