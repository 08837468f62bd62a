import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { foldStream } from '../events/foldEvents.js';
import { ToolOutput } from '../messages/toolOutput.js';
import type { CompletionResponse } from '../ports/chatCompletion.js';
import { createInMemoryEventStore } from '../store/inMemoryEventStore.js';
import { AgentCanFail } from '../tools/agentCanFail.js';
import { tool } from '../tools/createTool.js';
import type { ScriptStep } from '../testing/scriptedModel.js';
import { testAgent } from './testAgent.js';

// Arbitrary model behaviour: text, empty answers, batches of good, failing, stopping, unknown and
// malformed tool calls, and completions that throw. Arbitrary caller commands and settings.

type CallKind = 'echo' | 'flaky' | 'soft' | 'stop' | 'task_failed' | 'unknown' | 'badJson';
type StepSpec =
  | { kind: 'text' }
  | { kind: 'empty' }
  | { kind: 'throws' }
  | { kind: 'calls'; calls: { kind: CallKind; n: number }[] };
type CommandSpec = 'query' | 'queryOnce' | 'run' | 'runOnce' | 'stop';

const callArb = fc.record({
  kind: fc.constantFrom<CallKind>(
    'echo',
    'flaky',
    'soft',
    'stop',
    'task_failed',
    'unknown',
    'badJson',
  ),
  n: fc.integer({ min: 0, max: 2 }),
});
const stepArb: fc.Arbitrary<StepSpec> = fc.oneof(
  { weight: 2, arbitrary: fc.constant({ kind: 'text' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'empty' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'throws' as const }) },
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('calls' as const),
      calls: fc.array(callArb, { minLength: 1, maxLength: 3 }),
    }),
  },
);
const scenarioArb = fc.record({
  steps: fc.array(stepArb, { maxLength: 10 }),
  commands: fc.array(fc.constantFrom<CommandSpec>('query', 'queryOnce', 'run', 'runOnce', 'stop'), {
    minLength: 1,
    maxLength: 4,
  }),
  limit: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }),
  toolRetryLimit: fc.integer({ min: 0, max: 3 }),
  stopOnAssistant: fc.boolean(),
});
type Scenario = typeof scenarioArb extends fc.Arbitrary<infer T> ? T : never;

function toScript(steps: readonly StepSpec[]): ScriptStep[] {
  return steps.map((step, index): ScriptStep => {
    switch (step.kind) {
      case 'text':
        return { message: `answer ${index}`, toolCalls: [] };
      case 'empty':
        return { toolCalls: [] };
      case 'throws':
        return { throws: new Error(`model down at step ${index}`) };
      case 'calls':
        return {
          toolCalls: step.calls.map(({ kind, n }, position) => {
            const id = `c${index}_${position}`;
            const args =
              kind === 'badJson'
                ? '{"n":'
                : kind === 'task_failed'
                  ? JSON.stringify({ reason: `r${n}` })
                  : JSON.stringify({ n });
            const name = kind === 'badJson' ? 'echo' : kind === 'unknown' ? 'missing_tool' : kind;
            return { id, name, args };
          }),
        } satisfies CompletionResponse;
    }
  });
}

const tools = [
  tool({
    name: 'echo',
    description: 'ok',
    parameters: z.object({ n: z.number() }),
    execute: ({ n }) => `echo ${n}`,
  }),
  tool({
    name: 'flaky',
    description: 'throws',
    parameters: z.object({ n: z.number() }),
    execute: ({ n }) => {
      throw new Error(`flaky ${n}`);
    },
  }),
  tool({
    name: 'soft',
    description: 'fails softly',
    parameters: z.object({ n: z.number() }),
    execute: () => ToolOutput.fail('soft'),
  }),
  AgentCanFail.default(),
];

async function play(scenario: Scenario) {
  const store = createInMemoryEventStore();
  let onStopCalls = 0;
  const onStopPerRun: number[] = [];
  const harness = await testAgent(
    toScript(scenario.steps),
    (b) => {
      const configured = b
        .tools(tools)
        .toolRetryLimit(scenario.toolRetryLimit)
        .stopOnAssistant(scenario.stopOnAssistant)
        .onStart(() => void onStopPerRun.push(0))
        .onStop(() => {
          onStopCalls += 1;
          if (onStopPerRun.length > 0)
            onStopPerRun[onStopPerRun.length - 1] = (onStopPerRun.at(-1) ?? 0) + 1;
        });
      return scenario.limit === undefined ? configured : configured.limit(scenario.limit);
    },
    { store },
  );
  const { agent } = harness;
  for (const [index, command] of scenario.commands.entries()) {
    const run =
      command === 'query'
        ? agent.query(`q${index}`)
        : command === 'queryOnce'
          ? agent.queryOnce(`q${index}`)
          : command === 'run'
            ? agent.run()
            : command === 'runOnce'
              ? agent.runOnce()
              : agent.stop(`s${index}`);
    await run.catch(() => undefined);
  }
  return { agent, store, events: await harness.events(), onStopCalls, onStopPerRun };
}

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
