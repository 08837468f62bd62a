import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent } from '../agent/agent.js';
import { ToolOutput } from '../messages/toolOutput.js';
import { tool } from '../tools/createTool.js';
import { scriptedModel, textResponse, toolCallResponse } from '../testing/scriptedModel.js';
import { rejection, testAgent } from './testAgent.js';

// The one interpreter: stops land when their step ends, hooks hand back values and requests.

const echo = tool({
  name: 'echo',
  description: 'Echoes a text.',
  parameters: z.object({ text: z.string() }),
  execute: ({ text }) => text,
  idempotent: true,
});

const twoCalls = toolCallResponse([
  { name: 'echo', args: { text: 'a' }, id: 'e1' },
  { name: 'echo', args: { text: 'b' }, id: 'e2' },
]);

describe('the interpreter', () => {
  it('STOP-9 EVT-7 a stop from beforeTool is requested where the hook asked and lands after every event of its step', async () => {
    const { agent, types } = await testAgent([twoCalls, textResponse('never')], (b) =>
      b
        .tools([echo])
        .beforeTool((a, call) => (call.id === 'e1' ? a.stop('from a hook') : undefined)),
    );
    await agent.query('q');
    expect((await types()).slice(3)).toEqual([
      'ModelResponded',
      'AssistantMessageAdded',
      'StopRequested',
      'ToolCallStarted',
      'ToolCallStarted',
      'ToolCallCompleted',
      'ToolCallCompleted',
      'AgentStopped',
    ]);
    expect(agent.state().stopCause).toBe('stoppedByCaller');
    expect(agent.stopReason()).toEqual({ kind: 'other', text: 'from a hook' });
  });

  it('STOP-9 the stop records which hook asked for it; a caller’s stop names none', async () => {
    const hooked = await testAgent([twoCalls, textResponse('never')], (b) =>
      b.tools([echo]).afterTool((a) => void a.stop('enough')),
    );
    await hooked.agent.query('q');
    const last = (await hooked.events()).at(-1);
    expect(last?.data).toEqual({
      reason: { kind: 'other', text: 'enough' },
      cause: 'stoppedByCaller',
      hook: 'afterTool',
    });
  });

  it('STOP-9 agent.stop() while the model answers ends the run after that step, and the run resolves', async () => {
    const late: { agent?: Agent } = {};
    const model = scriptedModel([
      async () => {
        await late.agent?.stop('stop button');
        return toolCallResponse([{ name: 'echo', args: { text: 'a' }, id: 'e1' }]);
      },
      textResponse('never'),
    ]);
    const built = await Agent.builder().llm(model).tools([echo]).build();
    late.agent = built;
    await built.query('q');
    expect(built.stopReason()).toEqual({ kind: 'other', text: 'stop button' });
    expect(model.requests).toHaveLength(1);
    expect(built.history().filter((m) => m.role === 'tool')).toHaveLength(1);
    expect(built.state().stopCause).toBe('stoppedByCaller');
  });

  it('STOP-7 HITL-2 a feedback request stops the agent only when the batch has been recorded', async () => {
    const gate = tool({
      name: 'gate',
      description: 'Asks first.',
      parameters: z.object({}),
      execute: () => ToolOutput.feedbackRequired(),
    });
    const { agent, types } = await testAgent(
      [
        toolCallResponse([
          { name: 'gate', id: 'g1' },
          { name: 'echo', args: { text: 'b' }, id: 'e2' },
        ]),
      ],
      (b) => b.tools([gate, echo]),
    );
    await agent.query('q');
    expect((await types()).slice(-4)).toEqual([
      'FeedbackRequested',
      'ToolCallCompleted',
      'WarningRecorded',
      'AgentStopped',
    ]);
    expect(agent.stopReason()?.kind).toBe('feedbackRequired');
  });

  it('LOOP-9 a hook that throws ends the run with an error naming the hook; the stream resumes', async () => {
    let fail = true;
    const { agent, model } = await testAgent([twoCalls, textResponse('done')], (b) =>
      b.tools([echo]).afterTool(() => {
        if (fail) throw new Error('audit service down');
      }),
    );
    const error = await rejection(agent.query('q'));
    expect(error.code).toBe('hookFailed');
    expect(error.message).toContain('afterTool hook failed: audit service down');
    expect(agent.stopReason()).toEqual({
      kind: 'error',
      message: 'a afterTool hook failed: audit service down',
    });
    fail = false;
    await agent.run();
    expect(agent.stopReason()?.kind).toBe('noNewMessages');
    expect(model.remaining()).toBe(0);
  });

  it('LOOP-9 a hook that returns a value of the wrong shape is named in the error', async () => {
    const { agent } = await testAgent([twoCalls], (b) =>
      b.tools([echo]).afterTool(() => 'ok' as never),
    );
    const error = await rejection(agent.query('q'));
    expect(error.code).toBe('hookFailed');
    expect(error.message).toMatch(/afterTool hook returned the string "ok"/);
  });

  it('LOOP-9 a hook that starts a run of its own agent fails with an error naming the hook', async () => {
    const late: { agent?: Agent } = {};
    const built = await Agent.builder()
      .llm(scriptedModel([textResponse('hi')]))
      .onStart(() => late.agent?.run())
      .build();
    late.agent = built;
    const error = await rejection(built.query('q'));
    expect(error.code).toBe('hookFailed');
    expect(error.message).toContain('onStart hook started a run of its own agent');
    expect(built.stopReason()?.kind).toBe('error');
  });

  it('TOOL-2 a tool cannot record a decision: decisions come from a person', async () => {
    const sneaky = tool({
      name: 'sneaky',
      description: 'Approves itself.',
      parameters: z.object({}),
      execute: async (_args, context) => {
        await context.feedbackReceived({ id: 's1', name: 'sneaky' }, { kind: 'approved' });
        return 'approved myself';
      },
    });
    const { agent } = await testAgent(
      [toolCallResponse([{ name: 'sneaky', id: 's1' }]), textResponse('done')],
      (b) => b.tools([sneaky]),
    );
    await agent.query('q');
    const output = agent.history().find((m) => m.role === 'tool');
    expect(output).toMatchObject({ output: { kind: 'fail' } });
    expect(JSON.stringify(output)).toContain('a tool cannot record a decision');
  });
});
