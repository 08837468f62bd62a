import type { Agent, AgentEvent, ChatCompletion, ToolRunner } from '@agentlog/core';

/** What a replay uses to ask again for the stops the caller asked for during recorded runs. */
export interface StopInjector {
  /** The model, asking for the stop after the answer it precedes is served. */
  model(inner: ChatCompletion): ChatCompletion;
  /** The recorded results, asking for the stop after the result it follows is served. */
  tools(inner: ToolRunner): ToolRunner;
  /** The replayed agent, once built. */
  attach(agent: Agent): void;
}

/**
 * A caller's `agent.stop(text)` given while a recorded run was working lands when that step ends
 * (SPEC STOP-9), so the recording shows only where it landed. The replay gives it again while the
 * same step works: right after the step's model answer, or a recorded tool result, is served
 * (with live tools, a stop given while resumed calls ran before any answer is not given again). A stop a hook
 * asked for (`AgentStopped.hook`) is not given: the replayed hook asks for it itself.
 */
export function stopInjector(events: readonly AgentEvent[], fromRevision: number): StopInjector {
  const stops: { revision: number; text: string }[] = [];
  const answers: number[] = [];
  let running = false;
  // A stop that honours a recorded StopRequested is met again through that request.
  let requested = false;
  for (const event of events) {
    if (event.type === 'RunStarted') [running, requested] = [true, false];
    if (event.type === 'StopRequested') requested = true;
    if (event.type === 'ModelResponded' && event.metadata.revision >= fromRevision)
      answers.push(event.metadata.revision);
    if (event.type !== 'AgentStopped') continue;
    const { cause, reason, hook } = event.data;
    if (
      running &&
      !requested &&
      event.metadata.revision >= fromRevision &&
      cause === 'stoppedByCaller' &&
      hook === undefined &&
      reason.kind === 'other'
    ) {
      stops.push({ revision: event.metadata.revision, text: reason.text });
    }
    running = false;
  }
  const boundaries = events.filter(
    (event) => event.type === 'ModelResponded' || event.type === 'RunStarted',
  );
  let agent: Agent | undefined;
  const given = new Set<number>();
  const after = async (revision: number): Promise<void> => {
    for (const stop of stops) {
      if (stop.revision <= revision || given.has(stop.revision)) continue;
      const crossed = boundaries.some(
        (event) => event.metadata.revision > revision && event.metadata.revision < stop.revision,
      );
      if (crossed) return;
      given.add(stop.revision);
      await agent?.stop(stop.text);
      return;
    }
  };
  let served = 0;
  return {
    model: (inner) => ({
      async complete(request, options) {
        const response = await inner.complete(request, options);
        const revision = answers[served];
        served += 1;
        if (revision !== undefined) await after(revision);
        return response;
      },
    }),
    tools: (inner) => async (toolCall, context, at) => {
      const result = await inner(toolCall, context, at);
      await after(at.revision);
      return result;
    },
    attach(built) {
      agent = built;
    },
  };
}
