import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  isAgentFailed,
  isError,
  isFeedbackRequired,
  isNoNewMessages,
  isOther,
  isRequestedByTool,
  isToolCallsOverLimit,
  type StopReason,
} from '../events/stopReason.js';
import { ToolOutput } from '../messages/toolOutput.js';
import type { JsonObject } from '../support/json.js';
import { AgentCanFail } from '../tools/agentCanFail.js';
import { tool } from '../tools/createTool.js';
import { StopWithArgs } from '../tools/stopWithArgs.js';
import { textResponse, toolCallResponse } from '../testing/scriptedModel.js';
import { rejection, testAgent } from './testAgent.js';

const notes = z.object({ version: z.string(), highlights: z.array(z.string()) });
const echo = tool({
  name: 'echo',
  description: 'Echoes its text.',
  parameters: z.object({ text: z.string() }),
  execute: ({ text }) => `echo: ${text}`,
});

describe('stopping and structured results', () => {
  it('STOP-1 the builder starts with a stop tool that takes no arguments and stops with requestedByTool(call, undefined)', async () => {
    const { agent, model } = await testAgent([
      toolCallResponse([{ name: 'stop', id: 's1', args: 'ignored, not json' }]),
    ]);
    await agent.query('finish');
    const spec = model.requests[0]?.tools.find((t) => t.name === 'stop');
    expect(spec?.parameters).toMatchObject({ type: 'object', properties: {} });
    expect(agent.stopReason()).toEqual({
      kind: 'requestedByTool',
      toolCall: { id: 's1', name: 'stop', args: 'ignored, not json' },
    });
    expect(agent.stopReason()).not.toHaveProperty('payload');
  });

  it('STOP-2 StopWithArgs.default() hands over its output string as the payload', async () => {
    const { agent } = await testAgent(
      [toolCallResponse([{ name: 'stop', args: { output: 'all done' } }])],
      (b) => b.withoutDefaultStopTool().tools([StopWithArgs.default()]),
    );
    await agent.query('finish');
    expect(agent.stopReason()).toMatchObject({ kind: 'requestedByTool', payload: 'all done' });
  });

  it('STOP-2 StopWithArgs.withParametersSchema forwards the whole argument object', async () => {
    const schema = z.toJSONSchema(notes) as unknown as JsonObject;
    const { agent } = await testAgent(
      [toolCallResponse([{ name: 'stop', args: { version: '0.34.0', highlights: ['perl'] } }])],
      (b) => b.withoutDefaultStopTool().tools([StopWithArgs.withParametersSchema(schema)]),
    );
    await agent.query('finish');
    expect(agent.stopReason()).toMatchObject({
      payload: { highlights: ['perl'], version: '0.34.0' },
    });
  });

  it('STOP-3 AgentCanFail is added only when passed, and its default form stops with agentFailed(reason)', async () => {
    const without = await testAgent([textResponse('x')]);
    await without.agent.query('q');
    expect(without.model.requests[0]?.tools.map((t) => t.name)).toEqual(['stop']);

    const { agent } = await testAgent(
      [toolCallResponse([{ name: 'task_failed', args: { reason: 'no access' } }])],
      (b) => b.tools([AgentCanFail.default()]),
    );
    await expect(agent.query('restore the backup')).resolves.toBeUndefined();
    expect(agent.stopReason()).toEqual({ kind: 'agentFailed', payload: 'no access' });
  });

  it('STOP-3 AgentCanFail with a custom schema hands over the arguments as a JSON string', async () => {
    const report = { summary: 'backup missing', blocked_by: ['ops'] };
    const { agent } = await testAgent(
      [toolCallResponse([{ name: 'task_failed', args: report }])],
      (b) =>
        b.tools([
          AgentCanFail.withParametersSchema(
            z.toJSONSchema(
              z.object({ summary: z.string(), blocked_by: z.array(z.string()) }),
            ) as unknown as JsonObject,
          ),
        ]),
    );
    await agent.query('restore');
    const reason = agent.stopReason();
    expect(reason?.kind).toBe('agentFailed');
    const payload = reason?.kind === 'agentFailed' ? reason.payload : undefined;
    expect(typeof payload).toBe('string');
    expect(JSON.parse(payload as string)).toEqual(report);
  });

  it('STOP-4 tools() keeps the default stop: a stop passed to tools loses to it', async () => {
    const { agent, model } = await testAgent(
      [toolCallResponse([{ name: 'stop', args: { output: 'x' } }])],
      (b) => b.tools([StopWithArgs.default()]),
    );
    await agent.query('q');
    expect(model.requests[0]?.tools.find((t) => t.name === 'stop')?.parameters).not.toHaveProperty(
      'properties.output',
    );
    expect(agent.stopReason()).not.toHaveProperty('payload');
  });

  it('STOP-4 withoutDefaultStopTool() works only before tools(); addTool replaces a tool of the same name', async () => {
    const after = await testAgent(
      [toolCallResponse([{ name: 'stop', args: { output: 'x' } }])],
      (b) => b.tools([StopWithArgs.default()]).withoutDefaultStopTool(),
    );
    await after.agent.query('q');
    expect(after.agent.stopReason()).not.toHaveProperty('payload');

    const before = await testAgent(
      [toolCallResponse([{ name: 'stop', args: { output: 'x' } }])],
      (b) => b.withoutDefaultStopTool().tools([StopWithArgs.default()]),
    );
    await before.agent.query('q');
    expect(before.agent.stopReason()).toMatchObject({ payload: 'x' });

    const added = await testAgent(
      [toolCallResponse([{ name: 'stop', args: { output: 'y' } }])],
      (b) => b.tools([echo]).addTool(StopWithArgs.default()),
    );
    await added.agent.query('q');
    expect(added.agent.stopReason()).toMatchObject({ payload: 'y' });
  });

  it('STOP-5 StopWithArgs arguments that are not JSON are a counted failure; the default stop ignores them', async () => {
    const { agent, events } = await testAgent(
      [
        toolCallResponse([{ name: 'stop', args: '{"output": ' }]),
        toolCallResponse([{ name: 'stop', args: { output: 'fixed' } }]),
      ],
      (b) => b.withoutDefaultStopTool().tools([StopWithArgs.default()]),
    );
    await agent.query('q');
    const failed = (await events()).find((e) => e.type === 'ToolCallFailed');
    expect(failed?.data).toMatchObject({ failureCount: 1 });
    expect(agent.stopReason()).toMatchObject({ payload: 'fixed' });
  });

  it('STOP-5 StopWithArgs.fromZod turns a payload that does not match into a failure the model can correct', async () => {
    const { agent, model } = await testAgent(
      [
        toolCallResponse([{ name: 'stop', args: { version: 34 } }]),
        toolCallResponse([{ name: 'stop', args: { version: '0.34.0', highlights: [] } }]),
      ],
      (b) => b.withoutDefaultStopTool().tools([StopWithArgs.fromZod(notes)]),
    );
    await agent.query('q');
    const feedback = model.requests[1]?.messages.at(-1);
    expect(feedback).toMatchObject({ role: 'tool', output: { kind: 'fail' } });
    expect(JSON.stringify(feedback)).toContain('version');
    expect(agent.stopReason()).toMatchObject({ payload: { version: '0.34.0', highlights: [] } });
  });

  it('STOP-6 every reason has a guard, and stopReason() is undefined while running', async () => {
    const reasons: StopReason[] = [
      { kind: 'requestedByTool', toolCall: { id: '1', name: 'stop' } },
      { kind: 'agentFailed' },
      { kind: 'toolCallsOverLimit', toolCall: { id: '1', name: 'x' } },
      { kind: 'feedbackRequired', toolCall: { id: '1', name: 'x' } },
      { kind: 'error', message: 'm' },
      { kind: 'noNewMessages' },
      { kind: 'other', text: 't' },
    ];
    const guards = [
      isRequestedByTool,
      isAgentFailed,
      isToolCallsOverLimit,
      isFeedbackRequired,
      isError,
      isNoNewMessages,
      isOther,
    ];
    guards.forEach((guard, index) => {
      reasons.forEach((reason, other) => expect(guard(reason)).toBe(index === other));
    });
    expect(isOther(undefined)).toBe(false);

    let during: StopReason | undefined | 'unset' = 'unset';
    const { agent } = await testAgent(
      [toolCallResponse([{ name: 'echo', args: { text: 'a' } }]), textResponse('ok')],
      (b) => b.tools([echo]).beforeTool((a) => void (during = a.stopReason())),
    );
    expect(agent.stopReason()).toBeUndefined();
    await agent.query('q');
    expect(during).toBeUndefined();
    expect(agent.stopReason()).toBeDefined();
  });

  it('STOP-6 query resolves for requestedByTool, agentFailed, feedbackRequired, noNewMessages and other, and rejects for error', async () => {
    const failing = await testAgent([{ throws: new Error('down') }]);
    await expect(failing.agent.query('q')).rejects.toMatchObject({ code: 'completionFailed' });
    const other = await testAgent(
      [toolCallResponse([{ name: 'echo', args: { text: 'a' } }])],
      (b) => b.tools([echo]).afterTool((a) => a.stop('halt')),
    );
    await expect(other.agent.query('q')).resolves.toBeUndefined();
    expect(other.agent.stopReason()).toEqual({ kind: 'other', text: 'halt' });
  });

  it('STOP-7 the first stop wins, later tools of the batch still run, and onStop fires once per run', async () => {
    const stops: string[] = [];
    const { agent, events } = await testAgent(
      [
        toolCallResponse([
          { name: 'stop', id: 's' },
          { name: 'echo', args: { text: 'still runs' }, id: 'e' },
          { name: 'task_failed', args: { reason: 'late' }, id: 'f' },
        ]),
      ],
      (b) =>
        b
          .tools([echo, AgentCanFail.default()])
          .onStop((_a, reason) => void stops.push(reason.kind)),
    );
    await agent.query('q');
    await agent.stop('ignored');
    expect(agent.stopReason()).toMatchObject({ kind: 'requestedByTool', toolCall: { id: 's' } });
    expect(stops).toEqual(['requestedByTool']);
    const completed = (await events())
      .filter((e) => e.type === 'ToolCallCompleted')
      .map((e) => (e.data as { toolCallId: string }).toolCallId);
    expect(completed).toEqual(['s', 'e', 'f']);
    expect((await events()).filter((e) => e.type === 'AgentStopped')).toHaveLength(1);
  });

  it('STOP-8 an afterTool hook that turns a fail into agentFailed stops the agent with that payload', async () => {
    const deploy = tool({
      name: 'deploy',
      description: 'deploys',
      parameters: z.object({}),
      execute: () => ToolOutput.fail('403'),
    });
    const { agent } = await testAgent(
      [toolCallResponse([{ name: 'deploy' }]), textResponse('never')],
      (b) =>
        b
          .tools([deploy])
          .afterTool((_a, call, result) =>
            result.ok && result.output.kind === 'fail' && call.name === 'deploy'
              ? { ok: true, output: ToolOutput.agentFailed({ deploy: result.output.text }) }
              : undefined,
          ),
    );
    await agent.query('ship it');
    expect(agent.stopReason()).toEqual({ kind: 'agentFailed', payload: { deploy: '403' } });
  });

  it('STOP-9 agent.stop(text) from a hook lets the current step finish, then ends the run with other(text)', async () => {
    const { agent, model } = await testAgent(
      [
        toolCallResponse([
          { name: 'echo', args: { text: 'a' }, id: 'e1' },
          { name: 'echo', args: { text: 'b' }, id: 'e2' },
        ]),
        textResponse('never'),
      ],
      (b) =>
        b
          .tools([echo])
          .beforeTool(async (a, call) => (call.id === 'e1' ? a.stop('from a hook') : undefined)),
    );
    await agent.query('q');
    expect(agent.stopReason()).toEqual({ kind: 'other', text: 'from a hook' });
    expect(agent.history().filter((m) => m.role === 'tool')).toHaveLength(2);
    expect(model.requests).toHaveLength(1);
    expect(agent.state().stopCause).toBe('stoppedByCaller');
  });

  it('STOP-6 toolCallsOverLimit also rejects with a tool error', async () => {
    const broken = tool({
      name: 'broken',
      description: 'throws',
      parameters: z.object({}),
      execute: () => {
        throw new Error('nope');
      },
    });
    const { agent } = await testAgent(
      [toolCallResponse([{ name: 'broken' }]), toolCallResponse([{ name: 'broken' }])],
      (b) => b.tools([broken]).toolRetryLimit(1),
    );
    const error = await rejection(agent.query('q'));
    expect(error.code).toBe('toolError');
    expect(agent.stopReason()?.kind).toBe('toolCallsOverLimit');
  });
});
