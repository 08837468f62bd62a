import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ToolOutput } from '../messages/toolOutput.js';
import type { JsonObject } from '../support/json.js';
import { callOf, quietContext, toolRejection } from '../test/toolTestKit.js';
import { StopWithArgs } from './stopWithArgs.js';

const context = quietContext('stop-test');
const call = callOf('stop', 's1');
const rejectionOf = toolRejection;

describe('StopWithArgs.default()', () => {
  const stop = StopWithArgs.default();

  it('STOP-2 is named stop and its schema has one required string field output', () => {
    expect(stop.name).toBe('stop');
    expect(stop.spec()).toMatchObject({
      name: 'stop',
      parameters: {
        type: 'object',
        properties: { output: { type: 'string' } },
        required: ['output'],
        additionalProperties: false,
      },
    });
  });

  it('STOP-2 the payload is the value of output', async () => {
    await expect(stop.invoke(context, call('{"output":"all done"}'))).resolves.toEqual(
      ToolOutput.stop('all done'),
    );
  });

  it('STOP-5 arguments that are not JSON are wrongArguments', async () => {
    const error = await rejectionOf(stop.invoke(context, call('{"output": ')));
    expect(error.code).toBe('wrongArguments');
    expect(error.message).toMatch(/^tool stop: arguments are not valid JSON/);
  });

  it('STOP-5 absent arguments, or JSON without output, are missingArguments naming output', async () => {
    for (const args of [undefined, '{}', '[]']) {
      const error = await rejectionOf(stop.invoke(context, call(args)));
      expect(error.code).toBe('missingArguments');
      expect(error.message).toContain('output');
    }
  });
});

describe('StopWithArgs.withParametersSchema()', () => {
  const schema: JsonObject = {
    type: 'object',
    properties: {
      version: { type: 'string' },
      highlights: { type: 'array', items: { type: 'string' } },
    },
    required: ['version', 'highlights'],
  };

  it('STOP-2 is named stop and hands the schema to the model as it is', () => {
    const stop = StopWithArgs.withParametersSchema(schema);
    expect(stop.name).toBe('stop');
    expect(stop.spec().parameters).toEqual(schema);
  });

  it('STOP-2 forwards the whole argument object as the payload, unchecked', async () => {
    const stop = StopWithArgs.withParametersSchema(schema);
    await expect(
      stop.invoke(context, call('{"version":"0.34.0","highlights":["perl"]}')),
    ).resolves.toEqual(ToolOutput.stop({ version: '0.34.0', highlights: ['perl'] }));
    // No validation: whatever JSON the model sent is the payload (SPEC STOP-5).
    await expect(stop.invoke(context, call('{"unexpected":1}'))).resolves.toEqual(
      ToolOutput.stop({ unexpected: 1 }),
    );
  });

  it('STOP-5 arguments that are not JSON are wrongArguments', async () => {
    const error = await rejectionOf(
      StopWithArgs.withParametersSchema(schema).invoke(context, call('nope')),
    );
    expect(error.code).toBe('wrongArguments');
  });
});

describe('StopWithArgs.fromZod()', () => {
  const notes = z.object({
    version: z.string(),
    highlights: z.array(z.string()),
    note: z.string().optional(),
  });
  const stop = StopWithArgs.fromZod(notes);

  it('STOP-2 is named stop with the strict schema of the zod type', () => {
    expect(stop.name).toBe('stop');
    expect(stop.spec().parameters).toEqual({
      type: 'object',
      properties: {
        version: { type: 'string' },
        highlights: { type: 'array', items: { type: 'string' } },
        note: { type: ['string', 'null'] },
      },
      required: ['version', 'highlights', 'note'],
      additionalProperties: false,
    });
  });

  it('STOP-5 the payload is the validated arguments, a null optional key left out', async () => {
    const output = await stop.invoke(
      context,
      call('{"highlights":["perl"],"note":null,"version":"0.34.0"}'),
    );
    expect(output).toEqual(ToolOutput.stop({ highlights: ['perl'], version: '0.34.0' }));
  });

  it('STOP-5 a mismatch is wrongArguments naming the problem, so the model can correct it', async () => {
    const error = await rejectionOf(
      stop.invoke(context, call('{"version":34,"highlights":[],"note":null}')),
    );
    expect(error.code).toBe('wrongArguments');
    expect(error.message).toBe(
      'tool stop: arguments do not match the schema: $.version: Invalid input: expected string, received number',
    );
  });

  it('STOP-5 arguments that are not JSON are wrongArguments', async () => {
    const error = await rejectionOf(stop.invoke(context, call('{"version"')));
    expect(error.code).toBe('wrongArguments');
  });

  it('STOP-5 the payload is the value as a store hands it back: undefined keys are gone', async () => {
    const padded = StopWithArgs.fromZod(
      z.object({ v: z.string() }).transform((value) => ({ ...value, dropped: undefined })),
    );
    const payload = ToolOutput.asStop(await padded.invoke(context, call('{"v":"x"}')));
    expect(payload).toStrictEqual({ v: 'x' });
  });

  it('STOP-5 a validated value that is not plain JSON is a failure, not a payload', async () => {
    const dated = StopWithArgs.fromZod(
      z.object({ at: z.string().transform((text) => new Date(text)) }),
    );
    const error = await rejectionOf(dated.invoke(context, call('{"at":"2024-01-01"}')));
    expect(error.code).toBe('executionFailed');
    expect(error.message).toContain('$.at');
  });
});
