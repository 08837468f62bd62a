import fc from 'fast-check';
import { z } from 'zod';
import type { Agent } from '../agent/agent.js';
import { ToolFeedback } from '../messages/toolFeedback.js';
import { ToolOutput } from '../messages/toolOutput.js';
import type { CompletionResponse } from '../ports/chatCompletion.js';
import { createInMemoryEventStore } from '../store/inMemoryEventStore.js';
import { AgentCanFail } from '../tools/agentCanFail.js';
import { approvalRequired } from '../tools/approvalRequired.js';
import { tool } from '../tools/createTool.js';
import type { ScriptStep } from '../testing/scriptedModel.js';
import { testAgent } from './testAgent.js';

// Arbitrary model behaviour: text, empty answers, batches of good, failing, stopping, unknown and
// malformed tool calls, and completions that throw. Arbitrary caller commands and settings.

type CallKind =
  'echo' | 'flaky' | 'soft' | 'stop' | 'task_failed' | 'unknown' | 'badJson' | 'gated';
type StepSpec =
  | { kind: 'text' }
  | { kind: 'empty' }
  | { kind: 'throws' }
  | { kind: 'calls'; calls: { kind: CallKind; n: number }[] };
type CommandSpec =
  'query' | 'queryOnce' | 'run' | 'runOnce' | 'stop' | 'approve' | 'refuse' | 'summary';

const callArb = fc.record({
  kind: fc.constantFrom<CallKind>(
    'echo',
    'flaky',
    'soft',
    'stop',
    'task_failed',
    'unknown',
    'badJson',
    'gated',
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
export const scenarioArb = fc.record({
  steps: fc.array(stepArb, { maxLength: 10 }),
  commands: fc.array(
    fc.constantFrom<CommandSpec>(
      'query',
      'queryOnce',
      'run',
      'runOnce',
      'stop',
      'approve',
      'refuse',
      'summary',
    ),
    { minLength: 1, maxLength: 6 },
  ),
  limit: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }),
  toolRetryLimit: fc.integer({ min: 0, max: 3 }),
  stopOnAssistant: fc.boolean(),
});
export type Scenario = typeof scenarioArb extends fc.Arbitrary<infer T> ? T : never;

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
            const name =
              kind === 'badJson'
                ? 'echo'
                : kind === 'unknown'
                  ? 'missing_tool'
                  : kind === 'gated'
                    ? 'gated_echo'
                    : kind;
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
  approvalRequired(
    tool({
      name: 'gated_echo',
      description: 'asks first',
      parameters: z.object({ n: z.number() }),
      execute: ({ n }) => `gated ${n}`,
    }),
  ),
];

/** Plays a scenario on a fresh in-memory store with a fixed clock and ids. */
export async function play(scenario: Scenario) {
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
              : command === 'stop'
                ? agent.stop(`s${index}`)
                : command === 'summary'
                  ? agent.addSummary(`summary ${index}`)
                  : decide(agent, command, index);
    await run.catch(() => undefined);
  }
  return { agent, store, events: await harness.events(), onStopCalls, onStopPerRun };
}

/** Approves or refuses the first call that waits for a decision, if any. */
async function decide(agent: Agent, command: 'approve' | 'refuse', index: number): Promise<void> {
  const waiting = agent.pendingFeedback()[0];
  if (waiting === undefined) return;
  const feedback = command === 'approve' ? ToolFeedback.approved() : ToolFeedback.refused();
  await agent.context().feedbackReceived(waiting.toolCall, feedback, { by: `person ${index}` });
}
