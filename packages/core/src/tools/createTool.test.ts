import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AgentContext } from '../api/agentContext.js';
import { AgentError } from '../errors/agentError.js';
import { ToolError } from '../errors/toolError.js';
import { ToolOutput } from '../messages/toolOutput.js';
import { tool } from './createTool.js';

const context: AgentContext = {
  streamId: 'tools-test',
  feedbackReceived: () => Promise.resolve(),
  hasReceivedFeedback: () => Promise.resolve(undefined),
  history: () => [],
  idempotencyKey: (toolCall) => `tools-test:${toolCall.id}`,
};

function thrownBy(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

const refund = tool({
  name: 'refund',
  description: 'Refunds an order.',
  parameters: z.object({ orderId: z.string(), amount: z.number().optional() }),
  execute: ({ orderId, amount }, ctx) => `${ctx.streamId}:${orderId}:${amount ?? 'all'}`,
});

describe('tool()', () => {
  it('TOOL-1 has a name and a spec with the description and the strict schema', () => {
    expect(refund.name).toBe('refund');
    expect(refund.spec()).toEqual({
      name: 'refund',
      description: 'Refunds an order.',
      parameters: {
        type: 'object',
        properties: { orderId: { type: 'string' }, amount: { type: ['number', 'null'] } },
        required: ['orderId', 'amount'],
        additionalProperties: false,
      },
    });
  });

  it('TOOL-1 computes the spec once', () => {
    expect(refund.spec()).toBe(refund.spec());
  });

  it('TOOL-1 invoke hands the parsed arguments and the context to execute', async () => {
    await expect(
      refund.invoke(context, { id: 'c1', name: 'refund', args: '{"amount":5,"orderId":"o1"}' }),
    ).resolves.toBe('tools-test:o1:5');
  });

  it('TOOL-1 a null in an optional key reaches execute as absent', async () => {
    const seen: unknown[] = [];
    const probe = tool({
      name: 'probe',
      description: 'records its arguments',
      parameters: z.object({ a: z.string().optional() }),
      execute: (args) => {
        seen.push(args);
        return ToolOutput.text('ok');
      },
    });
    await expect(
      probe.invoke(context, { id: 'c1', name: 'probe', args: '{"a":null}' }),
    ).resolves.toEqual(ToolOutput.text('ok'));
    expect(seen).toEqual([{}]);
  });

  it('TOOL-1 an async execute is awaited', async () => {
    const slow = tool({
      name: 'slow',
      description: 'answers later',
      parameters: z.object({}),
      execute: async () => {
        await new Promise((resolve) => setTimeout(resolve, 1));
        return ToolOutput.stop('late');
      },
    });
    await expect(slow.invoke(context, { id: 'c1', name: 'slow' })).resolves.toEqual(
      ToolOutput.stop('late'),
    );
  });

  it('TOOL-1 passes idempotent through only when given', () => {
    const safe = tool({
      name: 'safe',
      description: 'd',
      parameters: z.object({}),
      idempotent: true,
      execute: () => 'x',
    });
    expect(safe.idempotent).toBe(true);
    expect(refund).not.toHaveProperty('idempotent');
  });

  it('TOOL-1 an error thrown by execute propagates as it is', async () => {
    const boom = new Error('disk full');
    const broken = tool({
      name: 'broken',
      description: 'throws',
      parameters: z.object({}),
      execute: () => {
        throw boom;
      },
    });
    await expect(broken.invoke(context, { id: 'c1', name: 'broken', args: '{}' })).rejects.toBe(
      boom,
    );
  });

  it('TOOL-5 arguments that are not JSON reject with wrongArguments and execute does not run', async () => {
    let ran = false;
    const guarded = tool({
      name: 'guarded',
      description: 'd',
      parameters: z.object({ n: z.number() }),
      execute: () => {
        ran = true;
        return 'ran';
      },
    });
    const pending = guarded.invoke(context, { id: 'c1', name: 'guarded', args: '{n: 1}' });
    await expect(pending).rejects.toBeInstanceOf(ToolError);
    await expect(pending).rejects.toMatchObject({
      code: 'wrongArguments',
      message: expect.stringMatching(/^tool guarded: arguments are not valid JSON/) as unknown,
    });
    expect(ran).toBe(false);
  });

  it('TOOL-5 arguments that do not match name the path and zod’s complaint', async () => {
    await expect(
      refund.invoke(context, { id: 'c1', name: 'refund', args: '{"orderId":1,"amount":null}' }),
    ).rejects.toMatchObject({
      code: 'wrongArguments',
      message:
        'tool refund: arguments do not match the schema: $.orderId: Invalid input: expected string, received number',
    });
  });

  it.each(['', 'has space', 'a'.repeat(65), 'dots.not.allowed'])(
    'TOOL-1 rejects the name %j at construction, naming it',
    (name) => {
      const error = thrownBy(() =>
        tool({ name, description: 'd', parameters: z.object({}), execute: () => 'x' }),
      );
      expect(error).toBeInstanceOf(AgentError);
      expect(error).toMatchObject({ code: 'invalidConfiguration' });
      expect((error as AgentError).message).toContain(`tool ${JSON.stringify(name)}:`);
    },
  );

  it('TOOL-1 accepts a 64-character name of letters, digits, _ and -', () => {
    const name = `a-_9${'b'.repeat(60)}`;
    expect(
      tool({ name, description: 'd', parameters: z.object({}), execute: () => 'x' }).name,
    ).toBe(name);
  });

  it('TOOL-1 rejects a schema strict mode cannot express at construction, naming the tool', () => {
    const notObject = thrownBy(() =>
      tool({ name: 'when', description: 'd', parameters: z.string(), execute: () => 'x' }),
    );
    expect(notObject).toBeInstanceOf(AgentError);
    expect(notObject).toMatchObject({
      code: 'invalidConfiguration',
      message: 'tool when: parameters must be a z.object(...)',
    });
    const date = thrownBy(() =>
      tool({
        name: 'when',
        description: 'd',
        parameters: z.object({ at: z.date() }),
        execute: () => 'x',
      }),
    );
    expect(date).toMatchObject({
      code: 'invalidConfiguration',
      message: expect.stringContaining('tool when:') as unknown,
    });
  });

  it('TOOL-5 a schema with an asynchronous refinement is parsed asynchronously, and still rejects', async () => {
    const known = new Set(['A-1']);
    const lookup = tool({
      name: 'lookup',
      description: 'Looks an order up.',
      parameters: z.object({
        orderId: z.string().refine(async (id) => Promise.resolve(known.has(id)), 'unknown order'),
      }),
      execute: ({ orderId }) => `found ${orderId}`,
    });
    await expect(
      lookup.invoke(context, { id: 'c1', name: 'lookup', args: '{"orderId":"A-1"}' }),
    ).resolves.toBe('found A-1');
    const refused = lookup.invoke(context, { id: 'c2', name: 'lookup', args: '{"orderId":"B-2"}' });
    await expect(refused).rejects.toBeInstanceOf(ToolError);
    await expect(refused).rejects.toThrow('orderId: unknown order');
  });
});
