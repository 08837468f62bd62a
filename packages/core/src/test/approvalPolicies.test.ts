import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { recordDecision } from '../commands/recordDecision.js';
import type { ApprovalCondition } from '../api/approvalGate.js';
import type { AgentEvent } from '../events/agentEvent.js';
import type { AppendOptions, EventStore, StreamEvent } from '../ports/eventStore.js';
import { ToolFeedback } from '../messages/toolFeedback.js';
import { createInMemoryEventStore } from '../store/inMemoryEventStore.js';
import { DeciderSpec } from '../testing/deciderSpec.js';
import { textResponse, toolCallResponse } from '../testing/scriptedModel.js';
import { approvalRequired } from '../tools/approvalRequired.js';
import { tool } from '../tools/createTool.js';
import { rejection, testAgent } from './testAgent.js';

// Approval policies beyond Swiftide (SPEC HITL-13, HITL-15): which calls of a gate wait for a
// person, and a decision that covers the rest of the run. Scripted by hand.

function refundTool(paid: number[]) {
  return tool({
    name: 'refund',
    description: 'Pays money back.',
    parameters: z.object({ amount: z.number() }),
    execute: ({ amount }) => {
      paid.push(amount);
      return `refunded ${amount}`;
    },
  });
}

const refund = (id: string, amount: number) => ({ name: 'refund', args: { amount }, id });
const startsOf = (events: readonly StreamEvent[]) =>
  (events as readonly AgentEvent[]).flatMap((event) =>
    event.type === 'ToolCallStarted'
      ? [{ id: event.data.toolCall.id, approval: event.data.approval }]
      : [],
  );

/** Records each append's event types and whether it was durable. */
function recordingStore(): { store: EventStore; commits: { types: string[]; durable: boolean }[] } {
  const inner = createInMemoryEventStore();
  const commits: { types: string[]; durable: boolean }[] = [];
  const store: EventStore = {
    ...inner,
    appendToStream(streamId, events, options: AppendOptions) {
      commits.push({ types: events.map((event) => event.type), durable: options.durable === true });
      return inner.appendToStream(streamId, events, options);
    },
  };
  return { store, commits };
}

describe('approval policies: a condition (HITL-13)', () => {
  it('HITL-13 only calls for which when says yes wait; the others run at once, and every start records its verdict', async () => {
    const paid: number[] = [];
    const asked: unknown[] = [];
    const when: ApprovalCondition = (args, context) => {
      asked.push({ args, streamId: context.streamId, seen: context.history().length });
      return (args as { amount: number }).amount > 100;
    };
    const { agent, events } = await testAgent(
      [
        // Two completions: in one, the small refund's output would shadow the large one (HITL-5).
        toolCallResponse([refund('small', 5)]),
        toolCallResponse([refund('large', 500)]),
        textResponse('both handled'),
      ],
      (builder) => builder.tools([approvalRequired(refundTool(paid), { when })]),
    );
    await agent.query('refund the two orders');
    // The small refund ran; the large one waits for a person.
    expect(paid).toEqual([5]);
    expect(agent.stopReason()).toMatchObject({
      kind: 'feedbackRequired',
      toolCall: { id: 'large' },
    });
    expect(asked).toEqual([
      { args: { amount: 5 }, streamId: 'test', seen: 2 },
      { args: { amount: 500 }, streamId: 'test', seen: 4 },
    ]);
    expect(startsOf(await events())).toEqual([
      { id: 'small', approval: { kind: 'notRequired' } },
      { id: 'large', approval: { kind: 'required' } },
    ]);

    await agent
      .context()
      .feedbackReceived({ id: 'large', name: 'refund' }, ToolFeedback.approved(), { by: 'ana' });
    await agent.run();
    expect(paid).toEqual([5, 500]);
    // Resuming does not ask the condition again: the start keeps the recorded verdict.
    expect(asked).toHaveLength(2);
    expect(startsOf(await events()).at(-1)).toEqual({
      id: 'large',
      approval: { kind: 'required' },
    });
    expect(agent.history().at(-1)).toMatchObject({ role: 'assistant', text: 'both handled' });
  });

  it('HITL-13 TOOL-7 a call the condition spares starts durably, as a plain tool does; a call that only asks does not', async () => {
    const { store, commits } = recordingStore();
    const { agent } = await testAgent(
      [
        toolCallResponse([refund('small', 5)]),
        toolCallResponse([refund('large', 500)]),
        textResponse('done'),
      ],
      (builder) =>
        builder.tools([
          approvalRequired(refundTool([]), {
            when: (args) => (args as { amount: number }).amount > 100,
          }),
        ]),
      { store },
    );
    await agent.query('go');
    const starts = commits.filter((commit) => commit.types.includes('ToolCallStarted'));
    expect(starts.map((commit) => commit.durable)).toEqual([true, false]);
  });

  it('HITL-13 a condition that throws, answers something else than a boolean, or gets arguments that are not JSON fails safe: the call waits and the verdict says why', async () => {
    const conditions: [ApprovalCondition, RegExp][] = [
      [
        () => {
          throw new Error('policy service down');
        },
        /^when threw: policy service down$/,
      ],
      [() => 'no' as unknown as boolean, /^when answered string, not true or false$/],
      [() => Promise.resolve(undefined as unknown as boolean), /answered undefined/],
    ];
    for (const [when, error] of conditions) {
      const paid: number[] = [];
      const { agent, events } = await testAgent(
        [toolCallResponse([refund('c1', 5)]), textResponse('done')],
        (builder) => builder.tools([approvalRequired(refundTool(paid), { when })]),
      );
      await agent.query('go');
      expect(paid).toEqual([]);
      expect(agent.stopReason()?.kind).toBe('feedbackRequired');
      const [start] = startsOf(await events());
      expect(start?.approval?.kind).toBe('required');
      expect(start?.approval).toHaveProperty('error');
      expect((start?.approval as { error: string }).error).toMatch(error);
    }
    let asked = false;
    const { agent, events } = await testAgent(
      [toolCallResponse([{ name: 'refund', args: '{"amount": 5', id: 'c1' }]), textResponse('x')],
      (builder) =>
        builder.tools([
          approvalRequired(refundTool([]), {
            when: () => {
              asked = true;
              return false;
            },
          }),
        ]),
    );
    await agent.query('go');
    expect(asked).toBe(false);
    expect(startsOf(await events())[0]?.approval).toEqual({
      kind: 'required',
      error: 'its arguments are not JSON, so when was not asked',
    });
  });

  it('HITL-13 approvalRequired refuses a when that is not a function, naming the tool', () => {
    expect(() =>
      approvalRequired(refundTool([]), { when: true as unknown as ApprovalCondition }),
    ).toThrow(
      'approvalRequired(refund): when must be a function (args, context) => boolean, got boolean',
    );
  });

  it('HITL-13 the decider asks for the verdicts before a conditional gate’s batch, and records them with its starts', () => {
    const spec = DeciderSpec.for({ tools: { refund: { gated: true, conditional: true } } });
    const given = spec.given([
      { type: 'RunStarted', data: { mode: 'query', input: 'go' } },
      { type: 'UserMessageQueued', data: { text: 'go' } },
      { type: 'UserMessageAdded', data: { text: 'go' } },
      {
        type: 'AssistantMessageAdded',
        data: {
          message: { role: 'assistant', toolCalls: [{ id: 'c1', name: 'refund', args: '{}' }] },
        },
      },
    ]);
    given.whenNext({ phase: 'step', asked: true }).then({
      kind: 'judgeApproval',
      toolCalls: [{ id: 'c1', name: 'refund' }],
    });
    given
      .whenNext({
        phase: 'step',
        asked: true,
        verdicts: new Map([['c1', { kind: 'notRequired' }]]),
      })
      .then({
        kind: 'invokeBatch',
        durable: true,
        started: [{ type: 'ToolCallStarted', data: { approval: { kind: 'notRequired' } } }],
      });
  });
});

describe('approval policies: a decision for the rest of the run (HITL-15)', () => {
  it('HITL-15 an approval for the run covers the tool’s later calls in that run; the decision records its scope and each covered start names it', async () => {
    const paid: number[] = [];
    const { agent, events } = await testAgent(
      [
        toolCallResponse([refund('c1', 10)]),
        toolCallResponse([refund('c2', 20)]),
        toolCallResponse([refund('c3', 30)]),
        textResponse('three refunds'),
        toolCallResponse([refund('c4', 40)]),
      ],
      (builder) => builder.tools([approvalRequired(refundTool(paid))]),
    );
    await agent.query('refund everything');
    expect(agent.stopReason()).toMatchObject({ kind: 'feedbackRequired', toolCall: { id: 'c1' } });
    await agent.context().feedbackReceived({ id: 'c1', name: 'refund' }, ToolFeedback.approved(), {
      by: 'ana',
      scope: 'run',
    });
    await agent.run();
    expect(paid).toEqual([10, 20, 30]);
    const stored = await events();
    expect(stored.find((event) => event.type === 'FeedbackReceived')?.data).toEqual({
      toolCallId: 'c1',
      feedback: { kind: 'approved' },
      by: 'ana',
      scope: 'run',
    });
    const covered = { kind: 'approvedForRun', toolCallId: 'c1', by: 'ana' };
    expect(startsOf(stored)).toEqual([
      { id: 'c1', approval: undefined },
      { id: 'c1', approval: undefined },
      { id: 'c2', approval: covered },
      { id: 'c3', approval: covered },
    ]);
    expect(agent.state().runApprovals).toBeUndefined();

    // The run that the approval covered has stopped: the next query asks again.
    await agent.query('one more');
    expect(paid).toEqual([10, 20, 30]);
    expect(agent.stopReason()).toMatchObject({ kind: 'feedbackRequired', toolCall: { id: 'c4' } });
  });

  it('HITL-15 an approval for the run covers a sibling call of the same tool that waits, and no call of another tool', async () => {
    const paid: number[] = [];
    const mails: string[] = [];
    const mail = tool({
      name: 'send_mail',
      description: 'Sends a mail.',
      parameters: z.object({ to: z.string() }),
      execute: ({ to }) => {
        mails.push(to);
        return 'sent';
      },
    });
    const { agent } = await testAgent(
      [
        toolCallResponse([
          refund('c1', 10),
          refund('c2', 20),
          { name: 'send_mail', args: { to: 'bo' }, id: 'm1' },
        ]),
        textResponse('done'),
      ],
      (builder) => builder.tools([approvalRequired(refundTool(paid)), approvalRequired(mail)]),
    );
    await agent.query('go');
    expect(agent.pendingFeedback().map((call) => call.toolCall.id)).toEqual(['c1', 'c2', 'm1']);
    await agent
      .context()
      .feedbackReceived({ id: 'c1', name: 'refund' }, ToolFeedback.approved(), { scope: 'run' });
    // The mail still waits, so the resumed run rejects (HITL-6) once the refunds ran.
    expect((await rejection(agent.run())).code).toBe('unfulfilledToolCalls');
    // A batch's tools run at once, so in no set order.
    expect([...paid].sort()).toEqual([10, 20]);
    expect(mails).toEqual([]);
    expect(agent.pendingFeedback().map((call) => call.toolCall.id)).toEqual(['m1']);
  });

  it('HITL-15 only an approval covers the run, and only the scopes call and run exist: anything else is refused and nothing is written', async () => {
    const store = createInMemoryEventStore();
    const { agent } = await testAgent(
      [toolCallResponse([refund('c1', 10)])],
      (builder) => builder.tools([approvalRequired(refundTool([]))]),
      { store },
    );
    await agent.query('go');
    const before = (await store.readStream('test')).length;
    const refused = await rejection(
      recordDecision(store, 'test', 'c1', ToolFeedback.refused(), { scope: 'run' }),
    );
    expect(refused.code).toBe('invalidFeedback');
    expect(refused.message).toBe(
      'feedback for tool call c1: only an approval can cover the rest of the run; a refusal answers its one call',
    );
    const unknown = await rejection(
      recordDecision(store, 'test', 'c1', ToolFeedback.approved(), {
        scope: 'forever' as 'run',
      }),
    );
    expect(unknown.message).toBe(
      'feedback for tool call c1: the scope must be call or run, not "forever"',
    );
    expect(await store.readStream('test')).toHaveLength(before);
    // Given from outside the agent, with the default scope, it covers the one call.
    await recordDecision(store, 'test', 'c1', ToolFeedback.approved(), { scope: 'call' });
    const last = (await store.readStream('test')).at(-1);
    expect(last?.data).toEqual({ toolCallId: 'c1', feedback: { kind: 'approved' } });
  });

  it('HITL-15 HITL-13 an approval for the run also spares the condition: covered calls are not judged', async () => {
    const paid: number[] = [];
    let judged = 0;
    const { agent } = await testAgent(
      [
        toolCallResponse([refund('c1', 500)]),
        toolCallResponse([refund('c2', 700)]),
        textResponse('done'),
      ],
      (builder) =>
        builder.tools([
          approvalRequired(refundTool(paid), {
            when: () => {
              judged += 1;
              return true;
            },
          }),
        ]),
    );
    await agent.query('go');
    await agent
      .context()
      .feedbackReceived({ id: 'c1', name: 'refund' }, ToolFeedback.approved(), { scope: 'run' });
    await agent.run();
    expect(paid).toEqual([500, 700]);
    expect(judged).toBe(1);
  });
});
