import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent } from '../agent/agent.js';
import type { ToolCall } from '../messages/toolCall.js';
import { ToolFeedback } from '../messages/toolFeedback.js';
import { createInMemoryEventStore } from '../store/inMemoryEventStore.js';
import { approvalRequired } from '../tools/approvalRequired.js';
import { REFUSAL_TEXT } from '../messages/toolFeedback.js';
import { tool } from '../tools/createTool.js';
import { StopWithArgs } from '../tools/stopWithArgs.js';
import type { Tool } from '../api/tool.js';
import { counterIds, fixedClock } from '../testing/fixedClock.js';
import { scriptedModel, textResponse, toolCallResponse } from '../testing/scriptedModel.js';
import { IssueRefund } from '../../../../fixtures/scenarios/issueRefund.js';
import { rejection, testAgent } from './testAgent.js';

function guessTool(ran: number[]): Tool {
  return tool({
    name: 'guess_a_number',
    description: 'Guesses a number.',
    parameters: z.object({ number: z.number() }),
    execute: ({ number }) => {
      ran.push(number);
      return `You guessed ${number}`;
    },
  });
}

const guess = (id: string, number = 42) =>
  toolCallResponse([{ name: 'guess_a_number', args: { number }, id }]);
const types = (events: { type: string }[]) => events.map((e) => e.type);

/** An agent whose model calls the approval tool and, in the same completion, a plain echo. */
function siblingBesideApproval(ran: number[]) {
  const echo = tool({
    name: 'echo',
    description: 'e',
    parameters: z.object({}),
    execute: () => 'sibling ran',
  });
  return testAgent(
    [
      toolCallResponse([
        { name: 'guess_a_number', args: { number: 7 }, id: 'g1' },
        { name: 'echo', args: {}, id: 'e1' },
      ]),
      textResponse('moving on'),
    ],
    (b) => b.tools([approvalRequired(guessTool(ran)), echo]),
  );
}

describe('human in the loop', () => {
  it('HITL-1 approvalRequired keeps the inner name and spec, asks, runs on approval, and answers a refusal with text', async () => {
    const ran: number[] = [];
    const inner = guessTool(ran);
    const wrapped = approvalRequired(inner);
    expect(wrapped.name).toBe('guess_a_number');
    expect(wrapped.spec()).toEqual(inner.spec());

    const approved = await testAgent([guess('g1'), textResponse('done')], (b) =>
      b.tools([wrapped]),
    );
    await approved.agent.query('guess');
    expect(approved.agent.stopReason()).toMatchObject({
      kind: 'feedbackRequired',
      toolCall: { id: 'g1' },
    });
    expect(approved.agent.stopReason()).not.toHaveProperty('payload');
    expect(ran).toEqual([]);
    await approved.agent
      .context()
      .feedbackReceived(
        { id: 'g1', name: 'guess_a_number' },
        ToolFeedback.approved().withPayload({ ignored: true }),
      );
    await approved.agent.run();
    expect(ran).toEqual([42]);
    expect(approved.agent.history().find((m) => m.role === 'tool')).toMatchObject({
      output: { kind: 'text', text: 'You guessed 42' },
    });

    const refused = await testAgent([guess('g2'), textResponse('ok')], (b) =>
      b.tools([approvalRequired(guessTool(ran))]),
    );
    await refused.agent.query('guess');
    await refused.agent
      .context()
      .feedbackReceived({ id: 'g2', name: 'guess_a_number' }, ToolFeedback.refused());
    await refused.agent.run();
    expect(ran).toEqual([42]);
    expect(refused.agent.history().find((m) => m.role === 'tool')).toMatchObject({
      output: { kind: 'text', text: REFUSAL_TEXT },
    });
    expect(REFUSAL_TEXT).toBe('This tool call was refused');
  });

  it('HITL-2 a feedback request stops the agent, records no output, and names only the first call of the batch', async () => {
    const ran: number[] = [];
    const echo = tool({
      name: 'echo',
      description: 'e',
      parameters: z.object({ t: z.string() }),
      execute: ({ t }) => t,
    });
    const { agent, events } = await testAgent(
      [
        toolCallResponse([
          { name: 'guess_a_number', args: { number: 1 }, id: 'first' },
          { name: 'approve_me', args: { t: 'x' }, id: 'second' },
          { name: 'echo', args: { t: 'sibling' }, id: 'third' },
        ]),
      ],
      (b) =>
        b.tools([
          approvalRequired(guessTool(ran)),
          approvalRequired(
            tool({
              name: 'approve_me',
              description: 'a',
              parameters: z.object({ t: z.string() }),
              execute: ({ t }) => t,
            }),
          ),
          echo,
        ]),
    );
    await agent.query('go');
    expect(agent.stopReason()).toMatchObject({
      kind: 'feedbackRequired',
      toolCall: { id: 'first', name: 'guess_a_number' },
    });
    const stream = await events();
    expect(
      stream
        .filter((e) => e.type === 'FeedbackRequested')
        .map((e) => (e.data as { toolCall: ToolCall }).toolCall.id),
    ).toEqual(['first', 'second']);
    expect(
      stream
        .filter((e) => e.type === 'ToolCallCompleted')
        .map((e) => (e.data as { toolCallId: string }).toolCallId),
    ).toEqual(['third']);
    expect(agent.state().toolCalls.first?.status).toBe('waiting');
    expect(agent.history().filter((m) => m.role === 'tool')).toHaveLength(1);
  });

  it('HITL-3 feedbackReceived records the decision with who and why; hasReceivedFeedback returns it once', async () => {
    const { agent, events } = await testAgent([guess('g1')], (b) =>
      b.tools([approvalRequired(guessTool([]))]),
    );
    await agent.query('guess');
    const call = { id: 'g1', name: 'guess_a_number' };
    await agent.context().feedbackReceived(call, ToolFeedback.approved().withPayload({ max: 50 }), {
      by: 'ana',
      note: 'fine',
    });
    const received = (await events()).at(-1);
    expect(received).toMatchObject({
      type: 'FeedbackReceived',
      data: {
        toolCallId: 'g1',
        feedback: { kind: 'approved', payload: { max: 50 } },
        by: 'ana',
        note: 'fine',
      },
    });
    expect(await agent.context().hasReceivedFeedback(call)).toEqual({
      kind: 'approved',
      payload: { max: 50 },
    });
    expect(await agent.context().hasReceivedFeedback(call)).toBeUndefined();
    expect((await events()).at(-1)).toMatchObject({
      type: 'FeedbackConsumed',
      data: { toolCallId: 'g1' },
    });
  });

  it('HITL-4 run re-invokes the open calls of the last assistant message and adds no user message', async () => {
    const ran: number[] = [];
    const { agent, model, events } = await testAgent([guess('g1'), textResponse('you won')], (b) =>
      b.tools([approvalRequired(guessTool(ran))]),
    );
    await agent.query('guess');
    const before = (await events()).length;
    await agent
      .context()
      .feedbackReceived({ id: 'g1', name: 'guess_a_number' }, ToolFeedback.approved(), {
        by: 'ana',
      });
    await agent.run();
    expect(ran).toEqual([42]);
    const after = (await events()).slice(before);
    expect(types(after)).toEqual([
      'FeedbackReceived',
      'RunStarted',
      'ToolCallStarted',
      'FeedbackConsumed',
      'ToolCallCompleted',
      'ModelResponded',
      'AssistantMessageAdded',
      'AgentStopped',
    ]);
    expect(model.requests[1]?.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(agent.history().filter((m) => m.role === 'user')).toHaveLength(1);
  });

  it('HITL-4 a resumed call that stops the agent is honoured, with no new completion', async () => {
    const { agent, model } = await testAgent(
      [toolCallResponse([{ name: 'stop', args: { output: 'final' }, id: 's1' }])],
      (b) => b.withoutDefaultStopTool().tools([approvalRequired(StopWithArgs.default())]),
    );
    await agent.query('finish');
    expect(agent.stopReason()?.kind).toBe('feedbackRequired');
    await agent.context().feedbackReceived({ id: 's1', name: 'stop' }, ToolFeedback.approved());
    await agent.run();
    expect(agent.stopReason()).toMatchObject({ kind: 'requestedByTool', payload: 'final' });
    expect(model.requests).toHaveLength(1);
  });

  it('HITL-4 any output after the assistant message counts as answered, even a sibling one', async () => {
    const ran: number[] = [];
    const { agent, model } = await siblingBesideApproval(ran);
    await agent.query('go');
    await agent
      .context()
      .feedbackReceived({ id: 'g1', name: 'guess_a_number' }, ToolFeedback.approved());
    await agent.run();
    expect(ran).toEqual([]);
    expect(model.requests).toHaveLength(2);
  });

  it('HITL-5 a sibling output shadows the approval: the approved call never runs, and a warning is recorded and logged', async () => {
    const ran: number[] = [];
    const { agent, events, warnings } = await siblingBesideApproval(ran);
    await agent.query('go');
    const warning = (await events()).find((e) => e.type === 'WarningRecorded');
    expect(warning?.data).toMatchObject({ code: 'approvalShadowed', toolCallId: 'g1' });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('g1');
    expect(agent.pendingFeedback()).toEqual([
      { toolCall: { id: 'g1', name: 'guess_a_number', args: '{"number":7}' }, shadowed: true },
    ]);
    await agent
      .context()
      .feedbackReceived({ id: 'g1', name: 'guess_a_number' }, ToolFeedback.approved());
    await agent.run();
    expect(ran).toEqual([]);
  });

  it('HITL-6 a query before feedback rejects with unfulfilledToolCalls and keeps its message queued; retrying with query adds it twice', async () => {
    const ran: number[] = [];
    const { agent, model } = await testAgent([guess('g1'), textResponse('ok')], (b) =>
      b.tools([approvalRequired(guessTool(ran))]),
    );
    await agent.query('guess');
    const error = await rejection(agent.query('hurry up'));
    expect(error.code).toBe('unfulfilledToolCalls');
    expect(agent.stopReason()).toMatchObject({ kind: 'feedbackRequired', toolCall: { id: 'g1' } });
    expect(agent.state().queued).toEqual(['hurry up']);
    await agent
      .context()
      .feedbackReceived({ id: 'g1', name: 'guess_a_number' }, ToolFeedback.approved());
    await agent.query('hurry up');
    const texts = model.requests[1]?.messages.map((m) =>
      m.role === 'user' ? `user:${m.text}` : m.role,
    );
    expect(texts).toEqual(['user:guess', 'assistant', 'tool', 'user:hurry up', 'user:hurry up']);
  });

  it('HITL-6 retrying with run adds the queued message once, after the tool output', async () => {
    const { agent, model } = await testAgent([guess('g1'), textResponse('ok')], (b) =>
      b.tools([approvalRequired(guessTool([]))]),
    );
    await agent.query('guess');
    await rejection(agent.query('hurry up'));
    await rejection(agent.run());
    expect(agent.state().queued).toEqual(['hurry up']);
    await agent
      .context()
      .feedbackReceived({ id: 'g1', name: 'guess_a_number' }, ToolFeedback.approved());
    await agent.run();
    const texts = model.requests[1]?.messages.map((m) =>
      m.role === 'user' ? `user:${m.text}` : m.role,
    );
    expect(texts).toEqual(['user:guess', 'assistant', 'tool', 'user:hurry up']);
  });

  it('HITL-7 hooks see a resumed call twice: once when it asked, once when it ran', async () => {
    const seen: string[] = [];
    const { agent } = await testAgent([guess('g1'), textResponse('ok')], (b) =>
      b
        .tools([approvalRequired(guessTool([]))])
        .beforeTool((_a, call) => void seen.push(`before:${call.id}`))
        .afterTool(
          (_a, call, result) =>
            void seen.push(`after:${call.id}:${result.ok ? result.output.kind : 'error'}`),
        ),
    );
    await agent.query('guess');
    await agent
      .context()
      .feedbackReceived({ id: 'g1', name: 'guess_a_number' }, ToolFeedback.approved());
    await agent.run();
    expect(seen).toEqual(['before:g1', 'after:g1:feedbackRequired', 'before:g1', 'after:g1:text']);
  });

  it("HITL-8 a refusal is an answer: the history reads tool call, refusal, the person's message", async () => {
    const { agent, model } = await testAgent([guess('g1'), guess('g2', 13)], (b) =>
      b.tools([approvalRequired(guessTool([]))]),
    );
    await agent.query('guess');
    await agent
      .context()
      .feedbackReceived({ id: 'g1', name: 'guess_a_number' }, ToolFeedback.refused());
    await agent.query('Pick a smaller number');
    const tail = model.requests[1]?.messages.slice(-3);
    expect(tail).toEqual([
      {
        role: 'assistant',
        toolCalls: [{ id: 'g1', name: 'guess_a_number', args: '{"number":42}' }],
      },
      {
        role: 'tool',
        toolCall: { id: 'g1', name: 'guess_a_number', args: '{"number":42}' },
        output: { kind: 'text', text: REFUSAL_TEXT },
      },
      { role: 'user', text: 'Pick a smaller number' },
    ]);
    expect(agent.stopReason()).toMatchObject({ kind: 'feedbackRequired', toolCall: { id: 'g2' } });
  });

  it('HITL-14 a refusal with a reason gives the model the refusal text followed by the reason; the note stays in the audit', async () => {
    const { agent, model, events } = await testAgent([guess('g1'), textResponse('ok, 7')], (b) =>
      b.tools([approvalRequired(guessTool([]))]),
    );
    await agent.query('guess');
    await agent
      .context()
      .feedbackReceived(
        { id: 'g1', name: 'guess_a_number' },
        ToolFeedback.refused().withReason('pick one below ten'),
        { by: 'ana', note: 'internal: the budget review said so' },
      );
    await agent.run();
    const sent = model.requests[1]?.messages ?? [];
    expect(sent.find((message) => message.role === 'tool')).toMatchObject({
      output: { kind: 'text', text: `${REFUSAL_TEXT}: pick one below ten` },
    });
    // The note is for the audit: it is in the stream, and in nothing the model was sent.
    expect(JSON.stringify(sent)).not.toContain('budget review');
    const decision = (await events()).find((event) => event.type === 'FeedbackReceived');
    expect(decision?.data).toEqual({
      toolCallId: 'g1',
      feedback: { kind: 'refused', reason: 'pick one below ten' },
      by: 'ana',
      note: 'internal: the budget review said so',
    });
  });

  it('HITL-14 without a reason the fixed refusal text stands; an approval cannot carry a reason', async () => {
    const { agent, model } = await testAgent([guess('g1'), textResponse('fine')], (b) =>
      b.tools([approvalRequired(guessTool([]))]),
    );
    await agent.query('guess');
    const call = { id: 'g1', name: 'guess_a_number' };
    const refusedApproval = await rejection(
      agent.context().feedbackReceived(call, ToolFeedback.approved().withReason('why not')),
    );
    expect(refusedApproval.code).toBe('invalidFeedback');
    expect(refusedApproval.message).toMatch(/only a refusal carries a reason/);
    await agent.context().feedbackReceived(call, ToolFeedback.refused(), { note: 'no' });
    await agent.run();
    expect(model.requests[1]?.messages.find((message) => message.role === 'tool')).toMatchObject({
      output: { kind: 'text', text: REFUSAL_TEXT },
    });
  });

  it('HITL-9 a custom tool asks with a payload, and the approval payload lowers the refund', async () => {
    const refund = new IssueRefund();
    const { agent } = await testAgent(
      [
        toolCallResponse([
          { name: 'issue_refund', args: { order_id: 'A-17', amount_cents: 10_000 }, id: 'r1' },
        ]),
        textResponse('refunded'),
      ],
      (b) => b.tools([refund]),
    );
    await agent.query('Refund order A-17');
    const reason = agent.stopReason();
    expect(reason).toEqual({
      kind: 'feedbackRequired',
      toolCall: {
        id: 'r1',
        name: 'issue_refund',
        args: '{"amount_cents":10000,"order_id":"A-17"}',
      },
      payload: { order_id: 'A-17', amount_cents: 10_000 },
    });
    if (reason?.kind !== 'feedbackRequired') throw new Error('unreachable');
    await agent
      .context()
      .feedbackReceived(
        reason.toolCall,
        ToolFeedback.approved().withPayload({ amount_cents: 2_500 }),
        { by: 'lead' },
      );
    await agent.run();
    expect(refund.refunds).toEqual(['A-17:2500']);
    expect(agent.history().find((m) => m.role === 'tool')).toMatchObject({
      output: { text: 'Refunded 2500 cents for order A-17' },
    });
  });

  it('HITL-10 RES-1 a second agent on the same stream records the approval and completes the run; the system prompt is not added again', async () => {
    const store = createInMemoryEventStore();
    const ran: number[] = [];
    const build = (steps: Parameters<typeof scriptedModel>[0], process: string) =>
      Agent.builder()
        .llm(scriptedModel(steps))
        .systemPrompt('You guess numbers.')
        .tools([approvalRequired(guessTool(ran))])
        .store(store)
        .streamId('shared')
        .clock(fixedClock())
        .ids(counterIds(process))
        .build();
    const first = await build([guess('g1')], 'first');
    await first.query('guess');
    expect(first.stopReason()?.kind).toBe('feedbackRequired');

    const second = await build([textResponse('you won')], 'second');
    expect(second.state()).toStrictEqual(first.state());
    const reason = second.stopReason();
    if (reason?.kind !== 'feedbackRequired') throw new Error('expected a waiting call');
    await second.context().feedbackReceived(reason.toolCall, ToolFeedback.approved(), {
      by: 'ana',
      note: 'looks right',
    });
    await second.run();
    expect(ran).toEqual([42]);
    expect(second.stopReason()?.kind).toBe('noNewMessages');

    const stream = await store.readStream('shared');
    expect(stream.filter((e) => e.type === 'SystemPromptAdded')).toHaveLength(1);
    expect(stream.find((e) => e.type === 'FeedbackReceived')?.data).toMatchObject({
      by: 'ana',
      note: 'looks right',
    });
    // The first agent catches up before its next command and sees the finished run.
    await expect(first.run()).rejects.toMatchObject({ code: 'nothingToRun' });
    expect(first.state()).toStrictEqual(second.state());
  });

  it('HITL-11 pendingFeedback lists every open call that waits, while the stop reason names the first', async () => {
    const { agent } = await testAgent(
      [
        toolCallResponse([
          { name: 'guess_a_number', args: { number: 1 }, id: 'a' },
          { name: 'guess_a_number', args: { number: 2 }, id: 'b' },
        ]),
      ],
      (b) => b.tools([approvalRequired(guessTool([]))]),
    );
    await agent.query('two guesses');
    expect(agent.pendingFeedback().map((p) => p.toolCall.id)).toEqual(['a', 'b']);
    expect(agent.stopReason()).toMatchObject({ toolCall: { id: 'a' } });
  });

  it('HITL-3 bad feedback is refused with a clear error and changes nothing in the stream', async () => {
    const { agent, types: streamTypes } = await testAgent([guess('g1')], (b) =>
      b.tools([approvalRequired(guessTool([]))]),
    );
    await agent.query('guess');
    const before = await streamTypes();
    const call = { id: 'g1', name: 'guess_a_number' };
    await expect(
      agent.context().feedbackReceived({ id: 'nope', name: 'x' }, ToolFeedback.approved()),
    ).rejects.toThrow('feedback for tool call nope: the model never made this call in this stream');
    await expect(
      agent
        .context()
        .feedbackReceived(
          call,
          ToolFeedback.approved().withPayload({ when: new Date(0) } as never),
        ),
    ).rejects.toThrow(
      'feedback for tool call g1: the payload is not JSON: $.when (a Date, not a plain object)',
    );
    expect(await streamTypes()).toEqual(before);
    await agent.context().feedbackReceived(call, ToolFeedback.approved());
    await expect(
      agent.context().feedbackReceived(call, ToolFeedback.refused()),
    ).rejects.toMatchObject({ code: 'invalidFeedback' });
    expect((await streamTypes()).length).toBe(before.length + 1);
  });
});

describe('ambiguous calls after a crash', () => {
  async function crashedStream(idempotent: boolean) {
    const store = createInMemoryEventStore();
    const runs: string[] = [];
    const charge = tool({
      name: 'charge',
      description: 'charges a card',
      parameters: z.object({}),
      idempotent,
      execute: (_args, context) => {
        runs.push(context.streamId);
        return 'charged';
      },
    });
    const crashing = await Agent.builder()
      .llm(scriptedModel([toolCallResponse([{ name: 'charge', args: {}, id: 'c1' }])]))
      .tools([charge])
      .store(store)
      .streamId('crash')
      .ids(counterIds('a'))
      .beforeTool(() => {
        throw new Error('process died');
      })
      .build();
    await crashing.query('charge it').catch(() => undefined);
    // Keep only what was stored before the "crash": drop everything from the hook's stop on,
    // then add the ToolCallStarted that a real crash after the append would leave behind.
    const stored = await store.readStream('crash');
    const cut = stored.findIndex((e) => e.type === 'AgentStopped');
    const fresh = createInMemoryEventStore();
    await fresh.appendToStream(
      'crash',
      [
        ...stored.slice(0, cut).map(({ type, data, metadata: { revision: _r, ...metadata } }) => ({
          type,
          data,
          metadata,
        })),
        {
          type: 'ToolCallStarted',
          data: { toolCall: { id: 'c1', name: 'charge', args: '{}' }, idempotencyKey: 'crash:c1' },
          metadata: { eventId: 'crash-started', at: '2026-01-01T00:00:00.000Z', schemaVersion: 1 },
        },
      ],
      { expectedRevision: 'noStream' },
    );
    const resumed = await Agent.builder()
      .llm(scriptedModel([textResponse('done')]))
      .tools([charge])
      .store(fresh)
      .streamId('crash')
      .ids(counterIds('b'))
      .build();
    return { resumed, runs };
  }

  it('TOOL-7 an idempotent call that was started but never answered is re-run on resume', async () => {
    const { resumed, runs } = await crashedStream(true);
    expect(resumed.state().toolCalls.c1?.status).toBe('started');
    await resumed.run();
    expect(runs).toEqual(['crash']);
    expect(resumed.stopReason()?.kind).toBe('noNewMessages');
  });

  it('TOOL-7 a non-idempotent ambiguous call asks a person before it runs again', async () => {
    const { resumed, runs } = await crashedStream(false);
    await expect(resumed.run()).rejects.toMatchObject({ code: 'unfulfilledToolCalls' });
    expect(runs).toEqual([]);
    const reason = resumed.stopReason();
    expect(reason).toMatchObject({ kind: 'feedbackRequired', payload: { ambiguous: true } });
    expect(resumed.pendingFeedback()).toMatchObject([{ toolCall: { id: 'c1' }, ambiguous: true }]);
    await resumed
      .context()
      .feedbackReceived({ id: 'c1', name: 'charge' }, ToolFeedback.approved(), { by: 'ops' });
    await resumed.run();
    expect(runs).toEqual(['crash']);
  });
});

describe('an approved call that crashed mid-run', () => {
  it('TOOL-7 HITL-1 asks whether to run it again, sets the old approval aside, and runs once on a new approval', async () => {
    // The store's clock judges the crashed run's lease (SPEC WRK-4): it is moved past it below.
    let offsetMs = 0;
    const store = createInMemoryEventStore({ clock: () => new Date(Date.now() + offsetMs) });
    const runs: string[] = [];
    const hang = new Promise<void>(() => undefined);
    const charge = (wait?: Promise<void>) =>
      approvalRequired(
        tool({
          name: 'charge',
          description: 'charges a card',
          parameters: z.object({}),
          execute: async () => {
            runs.push('charge');
            await wait;
            return 'charged';
          },
        }),
      );
    const before = await Agent.builder()
      .llm(scriptedModel([toolCallResponse([{ name: 'charge', args: {}, id: 'c1' }])]))
      .tools([charge(hang)])
      .store(store)
      .streamId('pay')
      .ids(counterIds('before'))
      .clock(() => new Date('2026-01-01T00:00:00.000Z'))
      .build();
    await before.query('charge it');
    await before
      .context()
      .feedbackReceived({ id: 'c1', name: 'charge' }, ToolFeedback.approved(), { by: 'ana' });
    void before.run(); // hangs inside the tool: the process "dies" here
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(runs).toEqual(['charge']);

    const after = await Agent.builder()
      .llm(scriptedModel([textResponse('charged once')]))
      .tools([charge()])
      .store(store)
      .streamId('pay')
      .ids(counterIds('after'))
      .build();
    offsetMs = 10 * 60_000;
    await expect(after.run()).rejects.toMatchObject({ code: 'unfulfilledToolCalls' });
    expect(after.stopReason()).toMatchObject({
      kind: 'feedbackRequired',
      payload: { ambiguous: true },
    });
    expect(after.state().feedback).toEqual({});
    await after.context().feedbackReceived({ id: 'c1', name: 'charge' }, ToolFeedback.approved(), {
      by: 'ana',
      note: 'it did not charge',
    });
    await after.run();
    expect(runs).toEqual(['charge', 'charge']);
    expect(after.stopReason()?.kind).toBe('noNewMessages');
    expect(after.state().feedback).toEqual({});
  });
});
