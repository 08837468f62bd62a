import { describe, expect, it } from 'vitest';
import type { AgentContext } from '../api/agentContext.js';
import type { ToolCall } from '../messages/toolCall.js';
import { ToolFeedback } from '../messages/toolFeedback.js';
import { ToolOutput } from '../messages/toolOutput.js';
import { approvalRequired } from './approvalRequired.js';
import { REFUSAL_TEXT } from '../messages/toolFeedback.js';
import type { Tool } from '../api/tool.js';

/** A context that holds decisions per call id and consumes one when it is read, as the agent does. */
function fakeContext(decisions: Record<string, ToolFeedback> = {}) {
  const pending = new Map(Object.entries(decisions));
  const asked: string[] = [];
  const context: AgentContext = {
    streamId: 'hitl-test',
    feedbackReceived: (toolCall, feedback) => {
      pending.set(toolCall.id, feedback);
      return Promise.resolve();
    },
    hasReceivedFeedback: (toolCall) => {
      asked.push(toolCall.id);
      const feedback = pending.get(toolCall.id);
      pending.delete(toolCall.id);
      return Promise.resolve(feedback);
    },
    history: () => [],
    idempotencyKey: (toolCall) => `hitl-test:${toolCall.id}`,
  };
  return { context, asked, pending };
}

function innerTool(runs: ToolCall[]): Tool {
  return {
    name: 'deploy',
    idempotent: false,
    spec: () => ({
      name: 'deploy',
      description: 'Deploys.',
      parameters: { type: 'object', properties: {} },
    }),
    invoke: (_context, toolCall) => {
      runs.push(toolCall);
      return ToolOutput.text(`deployed ${toolCall.args ?? ''}`);
    },
  };
}

const call: ToolCall = { id: 'd1', name: 'deploy', args: '{"env":"prod"}' };

describe('approvalRequired()', () => {
  it('HITL-1 keeps the inner tool’s name, spec and idempotent flag', () => {
    const inner = innerTool([]);
    const wrapped = approvalRequired(inner);
    expect(wrapped.name).toBe('deploy');
    expect(wrapped.spec()).toEqual(inner.spec());
    expect(wrapped.idempotent).toBe(false);
    const noFlag: Tool = {
      name: inner.name,
      spec: () => inner.spec(),
      invoke: (ctx, toolCall) => inner.invoke(ctx, toolCall),
    };
    expect(approvalRequired(noFlag)).not.toHaveProperty('idempotent');
  });

  it('HITL-1 without a decision it asks for feedback and does not run the inner tool', async () => {
    const runs: ToolCall[] = [];
    const { context, asked } = fakeContext();
    const output = await approvalRequired(innerTool(runs)).invoke(context, call);
    expect(output).toEqual(ToolOutput.feedbackRequired());
    expect(output).not.toHaveProperty('payload');
    expect(asked).toEqual(['d1']);
    expect(runs).toEqual([]);
  });

  it('HITL-1 approved runs the inner tool, once: the decision is consumed', async () => {
    const runs: ToolCall[] = [];
    const { context, asked, pending } = fakeContext({ d1: ToolFeedback.approved() });
    const wrapped = approvalRequired(innerTool(runs));
    await expect(wrapped.invoke(context, call)).resolves.toEqual(
      ToolOutput.text('deployed {"env":"prod"}'),
    );
    expect(runs).toEqual([call]);
    expect(pending.size).toBe(0);
    // A second invocation of the same call needs a new decision.
    await expect(wrapped.invoke(context, call)).resolves.toEqual(ToolOutput.feedbackRequired());
    expect(asked).toEqual(['d1', 'd1']);
    expect(runs).toHaveLength(1);
  });

  it('HITL-1 refused gives the text output "This tool call was refused" without running the tool', async () => {
    const runs: ToolCall[] = [];
    const { context, asked, pending } = fakeContext({ d1: ToolFeedback.refused() });
    const output = await approvalRequired(innerTool(runs)).invoke(context, call);
    expect(REFUSAL_TEXT).toBe('This tool call was refused');
    expect(output).toEqual(ToolOutput.text('This tool call was refused'));
    expect(runs).toEqual([]);
    expect(asked).toEqual(['d1']);
    expect(pending.size).toBe(0);
  });

  it('HITL-1 a stored decision that is not an approval never runs the inner tool', async () => {
    const runs: ToolCall[] = [];
    const malformed = { kind: 'maybe' } as unknown as ToolFeedback;
    const { context } = fakeContext({ d1: malformed });
    await expect(approvalRequired(innerTool(runs)).invoke(context, call)).resolves.toEqual(
      ToolOutput.text(REFUSAL_TEXT),
    );
    expect(runs).toEqual([]);
  });

  it('HITL-1 ignores feedback payloads', async () => {
    const runs: ToolCall[] = [];
    const approved = fakeContext({ d1: ToolFeedback.approved().withPayload({ env: 'staging' }) });
    await expect(approvalRequired(innerTool(runs)).invoke(approved.context, call)).resolves.toEqual(
      ToolOutput.text('deployed {"env":"prod"}'),
    );
    expect(runs).toEqual([call]);
    const refused = fakeContext({ d1: ToolFeedback.refused().withPayload('too risky') });
    await expect(approvalRequired(innerTool(runs)).invoke(refused.context, call)).resolves.toEqual(
      ToolOutput.text(REFUSAL_TEXT),
    );
  });

  it('HITL-1 an error of the approved inner tool propagates', async () => {
    const boom = new Error('cluster down');
    const failing: Tool = { ...innerTool([]), invoke: () => Promise.reject(boom) };
    const { context } = fakeContext({ d1: ToolFeedback.approved() });
    await expect(approvalRequired(failing).invoke(context, call)).rejects.toBe(boom);
  });
});
