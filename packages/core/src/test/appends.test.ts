import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ToolFeedback } from '../messages/toolFeedback.js';
import type { AppendOptions, EventStore } from '../ports/eventStore.js';
import { createInMemoryEventStore } from '../store/inMemoryEventStore.js';
import { toolCallResponse } from '../testing/scriptedModel.js';
import { approvalRequired } from '../tools/approvalRequired.js';
import { tool } from '../tools/createTool.js';
import { testAgent } from './testAgent.js';

// How a step is committed: as few appends as the rules allow, and the appends that precede a
// side effect or record a decision marked durable for stores that relax the others.

interface Commit {
  readonly types: readonly string[];
  readonly durable: boolean;
}

function recordingStore(): { store: EventStore; commits: Commit[] } {
  const inner = createInMemoryEventStore();
  const commits: Commit[] = [];
  const store: EventStore = {
    ...inner,
    appendToStream(streamId, events, options: AppendOptions) {
      commits.push({ types: events.map((event) => event.type), durable: options.durable === true });
      return inner.appendToStream(streamId, events, options);
    },
  };
  return { store, commits };
}

const sideEffect = tool({
  name: 'send_mail',
  description: 'Sends a mail.',
  parameters: z.object({}),
  execute: () => 'sent',
});
const lookup = tool({
  name: 'lookup',
  description: 'Reads a value.',
  parameters: z.object({}),
  execute: () => '42',
  idempotent: true,
});
const refund = tool({
  name: 'refund',
  description: 'Pays money back.',
  parameters: z.object({}),
  execute: () => 'refunded',
});

describe('commits of a step', () => {
  it('LOOP-2 LOOP-4 TOOL-7 a run starts in one commit, a step with tools is two (the answer with the starts, then every outcome), the last answer goes in with the stop', async () => {
    const { store, commits } = recordingStore();
    const { agent } = await testAgent(
      [
        toolCallResponse([
          { name: 'lookup', id: 'c1' },
          { name: 'lookup', id: 'c2' },
        ]),
        { message: 'done', toolCalls: [] },
      ],
      (builder) => builder.tools([lookup]),
      { store },
    );
    await agent.query('go');
    expect(commits.map((commit) => commit.types)).toEqual([
      ['RunStarted', 'UserMessageQueued', 'UserMessageAdded'],
      ['ModelResponded', 'AssistantMessageAdded', 'ToolCallStarted', 'ToolCallStarted'],
      ['ToolCallCompleted', 'ToolCallCompleted'],
      ['ModelResponded', 'AssistantMessageAdded', 'AgentStopped'],
    ]);
  });

  it('TOOL-7 the start of a tool that is not idempotent is durable; an idempotent one is not', async () => {
    for (const [name, durable] of [
      ['send_mail', true],
      ['lookup', false],
    ] as const) {
      const { store, commits } = recordingStore();
      const { agent } = await testAgent(
        [toolCallResponse([{ name, id: 'c1' }]), { message: 'done', toolCalls: [] }],
        (builder) => builder.tools([sideEffect, lookup]),
        { store },
      );
      await agent.query('go');
      const starts = commits.filter((commit) => commit.types.includes('ToolCallStarted'));
      expect(
        starts.map((commit) => commit.durable),
        name,
      ).toEqual([durable]);
      // Nothing else in the run needs to survive a power loss.
      expect(commits.filter((commit) => commit.durable).length, name).toBe(durable ? 1 : 0);
    }
  });

  it('HITL-3 TOOL-7 a decision is a durable commit of its own; an approval gate that only asks is not', async () => {
    const { store, commits } = recordingStore();
    const { agent } = await testAgent(
      [toolCallResponse([{ name: 'refund', id: 'c1' }]), { message: 'done', toolCalls: [] }],
      (builder) => builder.tools([approvalRequired(refund)]),
      { store },
    );
    await agent.query('go');
    const waiting = agent.pendingFeedback()[0];
    expect(waiting?.toolCall.id).toBe('c1');
    commits.length = 0;
    await agent
      .context()
      .feedbackReceived(waiting!.toolCall, ToolFeedback.approved(), { by: 'ana' });
    expect(commits).toEqual([{ types: ['FeedbackReceived'], durable: true }]);
  });
});
