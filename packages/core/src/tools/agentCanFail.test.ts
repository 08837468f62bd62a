import { describe, expect, it } from 'vitest';
import { ToolOutput } from '../messages/toolOutput.js';
import type { JsonObject } from '../support/json.js';
import { callOf, quietContext, toolRejection } from '../test/toolTestKit.js';
import { AgentCanFail } from './agentCanFail.js';

const context = quietContext('fail-test');
const call = callOf('task_failed', 'f1');
const rejectionOf = toolRejection;

describe('AgentCanFail.default()', () => {
  const fail = AgentCanFail.default();

  it('STOP-3 is named task_failed and takes one required string reason', () => {
    expect(fail.name).toBe('task_failed');
    expect(fail.spec()).toMatchObject({
      name: 'task_failed',
      parameters: {
        type: 'object',
        properties: { reason: { type: 'string' } },
        required: ['reason'],
        additionalProperties: false,
      },
    });
  });

  it('STOP-3 stops with agentFailed(reason)', async () => {
    await expect(fail.invoke(context, call('{"reason":"no access"}'))).resolves.toEqual(
      ToolOutput.agentFailed('no access'),
    );
  });

  it('STOP-5 arguments that are not JSON are wrongArguments', async () => {
    const error = await rejectionOf(fail.invoke(context, call('{"reason"')));
    expect(error.code).toBe('wrongArguments');
    expect(error.message).toMatch(/^tool task_failed: arguments are not valid JSON/);
  });

  it('STOP-5 a missing reason is missingArguments, a reason that is not a string wrongArguments', async () => {
    for (const args of [undefined, '{}']) {
      const missing = await rejectionOf(fail.invoke(context, call(args)));
      expect(missing.code).toBe('missingArguments');
      expect(missing.message).toContain('reason');
    }
    const wrong = await rejectionOf(fail.invoke(context, call('{"reason":42}')));
    expect(wrong.code).toBe('wrongArguments');
    expect(wrong.message).toBe('tool task_failed: reason must be a string');
  });
});

describe('AgentCanFail.withParametersSchema()', () => {
  const schema: JsonObject = {
    type: 'object',
    properties: {
      summary: { type: 'string' },
      blocked_by: { type: 'array', items: { type: 'string' } },
    },
    required: ['summary', 'blocked_by'],
  };
  const fail = AgentCanFail.withParametersSchema(schema);

  it('STOP-3 AgentCanFail with a custom schema keeps its name and shows the schema as it is', () => {
    expect(fail.name).toBe('task_failed');
    expect(fail.spec().parameters).toEqual(schema);
  });

  it('STOP-3 AgentCanFail with a custom schema hands over a JSON string', async () => {
    const output = await fail.invoke(
      context,
      call('{"summary":"backup missing","blocked_by":["ops"]}'),
    );
    expect(output.kind).toBe('agentFailed');
    const payload = ToolOutput.asAgentFailed(output);
    expect(typeof payload).toBe('string');
    // Callers parse it a second time (a Swiftide gotcha kept on purpose).
    expect(JSON.parse(payload as string)).toEqual({
      summary: 'backup missing',
      blocked_by: ['ops'],
    });
    expect(payload).toBe('{"blocked_by":["ops"],"summary":"backup missing"}');
  });

  it('STOP-5 arguments that are not JSON are wrongArguments; absent ones missingArguments', async () => {
    expect((await rejectionOf(fail.invoke(context, call('not json')))).code).toBe('wrongArguments');
    expect((await rejectionOf(fail.invoke(context, call()))).code).toBe('missingArguments');
  });
});
