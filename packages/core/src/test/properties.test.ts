import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { foldStream } from '../events/foldEvents.js';
import { play, scenarioArb } from './loopScenarios.js';

describe('properties of the loop under arbitrary model behaviour', () => {
  it('EVT-1 LOOP-8 STOP-7 TOOL-3 invariants hold for every script, and the stream is deterministic', async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArb, async (scenario) => {
        const first = await play(scenario);
        const { events, agent } = first;

        // A tool call has at most one outcome.
        const outcomes = new Map<string, number>();
        for (const event of events) {
          if (event.type === 'ToolCallCompleted' || event.type === 'ToolCallFailed') {
            const id = (event.data as { toolCallId: string }).toolCallId;
            outcomes.set(id, (outcomes.get(id) ?? 0) + 1);
          }
        }
        for (const count of outcomes.values()) expect(count).toBe(1);

        // Each run records exactly one stop (none is left running) and onStop fires once per stop.
        let stopsInRun = -1;
        for (const event of events) {
          if (event.type === 'RunStarted') {
            if (stopsInRun !== -1) expect(stopsInRun).toBe(1);
            stopsInRun = 0;
          }
          if (event.type === 'AgentStopped' && stopsInRun !== -1) stopsInRun += 1;
        }
        if (stopsInRun !== -1) expect(stopsInRun).toBe(1);
        const stops = events.filter((event) => event.type === 'AgentStopped').length;
        expect(first.onStopCalls).toBe(stops);
        expect(agent.state().status).not.toBe('running');

        // The failure count never exceeds the limit + 1.
        for (const count of Object.values(agent.state().failureCounts)) {
          expect(count).toBeLessThanOrEqual(scenario.toolRetryLimit + 1);
        }

        // The live state is the fold of the stored stream.
        expect(foldStream(events).state).toStrictEqual(agent.state());

        // The same script with a fixed clock and ids gives a byte-identical stream.
        const second = await play(scenario);
        expect(JSON.stringify(second.events)).toBe(JSON.stringify(events));
      }),
      { numRuns: 150 },
    );
  });
});
