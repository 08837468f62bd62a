import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentError } from '../errors/agentError.js';
import { ToolError } from '../errors/toolError.js';
import { strictJsonSchema } from './strictJsonSchema.js';
import { parseJsonArgs, toolArguments } from './toolArguments.js';

function thrownBy(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('strictJsonSchema', () => {
  it('TOOL-1 closes every object and requires all keys, making optional ones nullable', () => {
    const schema = z.object({
      name: z.string().describe('who'),
      age: z.number().int().optional(),
      address: z.object({ street: z.string(), zip: z.string().optional() }),
      tags: z.array(z.object({ label: z.string(), weight: z.number().optional() })),
    });
    expect(strictJsonSchema(schema, 'demo')).toEqual({
      type: 'object',
      properties: {
        name: { type: 'string', description: 'who' },
        age: {
          type: ['integer', 'null'],
          minimum: Number.MIN_SAFE_INTEGER,
          maximum: Number.MAX_SAFE_INTEGER,
        },
        address: {
          type: 'object',
          properties: { street: { type: 'string' }, zip: { type: ['string', 'null'] } },
          required: ['street', 'zip'],
          additionalProperties: false,
        },
        tags: {
          type: 'array',
          items: {
            type: 'object',
            properties: { label: { type: 'string' }, weight: { type: ['number', 'null'] } },
            required: ['label', 'weight'],
            additionalProperties: false,
          },
        },
      },
      required: ['name', 'age', 'address', 'tags'],
      additionalProperties: false,
    });
  });

  it('TOOL-1 drops $schema', () => {
    expect(strictJsonSchema(z.object({}), 'demo')).not.toHaveProperty('$schema');
  });

  it('TOOL-1 keeps a nullable key as it is and adds no second null', () => {
    const schema = z.object({ a: z.string().nullable(), b: z.string().nullish() });
    expect(strictJsonSchema(schema, 'demo')).toMatchObject({
      properties: { a: { type: ['string', 'null'] }, b: { type: ['string', 'null'] } },
      required: ['a', 'b'],
    });
  });

  it('TOOL-1 wraps an optional enum in anyOf with null, since its enum would reject null', () => {
    const schema = z.object({ color: z.enum(['red', 'blue']).describe('paint').optional() });
    expect(strictJsonSchema(schema, 'demo')).toMatchObject({
      properties: {
        color: {
          description: 'paint',
          anyOf: [{ type: 'string', enum: ['red', 'blue'] }, { type: 'null' }],
        },
      },
    });
  });

  it('TOOL-1 recurses into unions, turning oneOf into anyOf, and appends null to an optional union', () => {
    const schema = z.object({
      shape: z.discriminatedUnion('kind', [
        z.object({ kind: z.literal('circle'), radius: z.number().optional() }),
        z.object({ kind: z.literal('square'), side: z.number() }),
      ]),
      id: z.union([z.string(), z.object({ n: z.number() })]).optional(),
    });
    const strict = strictJsonSchema(schema, 'demo');
    expect(strict).toMatchObject({
      properties: {
        shape: {
          anyOf: [
            {
              properties: { radius: { type: ['number', 'null'] } },
              required: ['kind', 'radius'],
              additionalProperties: false,
            },
            { required: ['kind', 'side'], additionalProperties: false },
          ],
        },
        id: {
          anyOf: [
            { type: 'string' },
            { type: 'object', required: ['n'], additionalProperties: false },
            { type: 'null' },
          ],
        },
      },
    });
    expect(strict.properties).not.toHaveProperty('shape.oneOf');
  });

  it('TOOL-1 tightens $defs and wraps an optional $ref in anyOf with null', () => {
    const Address = z
      .object({ city: z.string(), zip: z.string().optional() })
      .meta({ id: 'Address' });
    const strict = strictJsonSchema(z.object({ home: Address, work: Address.optional() }), 'demo');
    expect(strict).toMatchObject({
      properties: {
        home: { $ref: '#/$defs/Address' },
        work: { anyOf: [{ $ref: '#/$defs/Address' }, { type: 'null' }] },
      },
      $defs: {
        Address: {
          properties: { zip: { type: ['string', 'null'] } },
          required: ['city', 'zip'],
          additionalProperties: false,
        },
      },
    });
  });

  it('TOOL-1 rejects a top level that is not an object, naming the tool', () => {
    const error = thrownBy(() => strictJsonSchema(z.string(), 'refund'));
    expect(error).toBeInstanceOf(AgentError);
    expect(error).toMatchObject({
      code: 'invalidConfiguration',
      message: 'tool refund: parameters must be a z.object(...)',
    });
  });

  it.each([
    [
      'a date',
      z.object({ when: z.date() }),
      /tool refund: parameters cannot be expressed as JSON schema: Date/,
    ],
    ['a bigint', z.object({ n: z.bigint() }), /tool refund: .*BigInt/],
    [
      'a record',
      z.object({ meta: z.record(z.string(), z.string()) }),
      /tool refund: \$\.meta accepts keys/,
    ],
    ['a loose object', z.looseObject({ a: z.string() }), /tool refund: \$ accepts keys/],
    ['z.unknown()', z.object({ blob: z.unknown() }), /tool refund: \$\.blob has no JSON type/],
  ])(
    'TOOL-1 rejects %s as invalidConfiguration naming the tool and place',
    (_label, schema, message) => {
      const error = thrownBy(() => strictJsonSchema(schema, 'refund'));
      expect(error).toBeInstanceOf(AgentError);
      expect((error as AgentError).code).toBe('invalidConfiguration');
      expect((error as AgentError).message).toMatch(message);
    },
  );
});

describe('toolArguments', () => {
  const schema = z.object({
    title: z.string(),
    note: z.string().optional(),
    label: z.string().nullish(),
    count: z.number().default(3),
    items: z.array(z.object({ sku: z.string(), qty: z.number().optional() })),
  });
  const args = toolArguments(schema, 'order');

  it('TOOL-1 reads null in an optional key as absent, so the zod schema accepts it', async () => {
    const parsed = await args.parse(
      JSON.stringify({
        title: 't',
        note: null,
        label: null,
        count: null,
        items: [{ sku: 'a', qty: null }],
      }),
    );
    expect(parsed).toEqual({ title: 't', label: null, count: 3, items: [{ sku: 'a' }] });
    expect(parsed).not.toHaveProperty('note');
    expect(parsed.items[0]).not.toHaveProperty('qty');
  });

  it('TOOL-1 keeps values that are present', async () => {
    const parsed = await args.parse(
      JSON.stringify({
        title: 't',
        note: 'n',
        label: 'l',
        count: 5,
        items: [{ sku: 'a', qty: 2 }],
      }),
    );
    expect(parsed).toEqual({
      title: 't',
      note: 'n',
      label: 'l',
      count: 5,
      items: [{ sku: 'a', qty: 2 }],
    });
  });

  it('TOOL-1 reads null as absent inside the union branch the value means', async () => {
    const shapes = toolArguments(
      z.object({
        shape: z.discriminatedUnion('kind', [
          z.object({ kind: z.literal('circle'), radius: z.number().optional() }),
          z.object({ kind: z.literal('square'), side: z.number(), tag: z.string().optional() }),
        ]),
      }),
      'draw',
    );
    await expect(shapes.parse('{"shape":{"kind":"square","side":2,"tag":null}}')).resolves.toEqual({
      shape: { kind: 'square', side: 2 },
    });
    await expect(shapes.parse('{"shape":{"kind":"circle","radius":null}}')).resolves.toEqual({
      shape: { kind: 'circle' },
    });
  });

  it('TOOL-1 reads null as absent through a $ref', async () => {
    const Address = z.object({ city: z.string(), zip: z.string().optional() }).meta({ id: 'Addr' });
    const refs = toolArguments(z.object({ home: Address, work: Address.optional() }), 'ship');
    await expect(refs.parse('{"home":{"city":"x","zip":null},"work":null}')).resolves.toEqual({
      home: { city: 'x' },
    });
  });

  it('TOOL-1 treats absent or blank arguments as an empty object', async () => {
    const none = toolArguments(z.object({ verbose: z.boolean().optional() }), 'ping');
    await expect(none.parse(undefined)).resolves.toEqual({});
    await expect(none.parse('  ')).resolves.toEqual({});
  });

  it('TOOL-1 rejects keys the schema does not name, at any depth, naming their paths', async () => {
    const error = await rejectionOf(
      args.parse(JSON.stringify({ title: 't', extra: 1, items: [{ sku: 'a', colour: 'red' }] })),
    );
    expect(error).toBeInstanceOf(ToolError);
    expect(error).toMatchObject({ code: 'wrongArguments' });
    expect((error as ToolError).message).toBe(
      'tool order: arguments do not match the schema: $.extra: unexpected key; $.items[0].colour: unexpected key',
    );
  });

  it('TOOL-1 reports an unknown key of a strict zod object once', async () => {
    const strict = toolArguments(z.strictObject({ a: z.string() }), 'once');
    const error = await rejectionOf(strict.parse('{"a":"x","b":1}'));
    expect((error as ToolError).message).toBe(
      'tool once: arguments do not match the schema: $.b: unexpected key',
    );
  });

  it('TOOL-5 arguments that are not JSON are wrongArguments naming the tool', async () => {
    const error = await rejectionOf(args.parse('{"title": '));
    expect(error).toBeInstanceOf(ToolError);
    expect(error).toMatchObject({ code: 'wrongArguments' });
    expect((error as ToolError).message).toMatch(/^tool order: arguments are not valid JSON: /);
  });

  it('TOOL-5 a zod mismatch names the tool and every failing path with zod’s message', async () => {
    const error = await rejectionOf(
      args.parse(JSON.stringify({ title: 7, items: [{ sku: 'a', qty: 'two' }] })),
    );
    expect(error).toBeInstanceOf(ToolError);
    expect(error).toMatchObject({ code: 'wrongArguments' });
    expect((error as ToolError).message).toBe(
      'tool order: arguments do not match the schema: ' +
        '$.title: Invalid input: expected string, received number; ' +
        '$.items[0].qty: Invalid input: expected number, received string',
    );
  });

  it('TOOL-5 a null in a required key is a mismatch, not an absence', async () => {
    const error = await rejectionOf(args.parse(JSON.stringify({ title: null, items: [] })));
    expect((error as ToolError).message).toContain(
      '$.title: Invalid input: expected string, received null',
    );
  });

  it('TOOL-5 a union mismatch lists what each allowed form expected', async () => {
    const ids = toolArguments(z.object({ id: z.union([z.string(), z.number()]) }), 'find');
    const error = await rejectionOf(ids.parse('{"id":true}'));
    expect((error as ToolError).message).toBe(
      'tool find: arguments do not match the schema: $.id: matches none of the allowed forms ' +
        '($.id: Invalid input: expected string, received boolean | ' +
        '$.id: Invalid input: expected number, received boolean)',
    );
  });

  it('TOOL-5 arguments that are JSON but not an object are a mismatch at the root', async () => {
    const error = await rejectionOf(args.parse('[1,2]'));
    expect((error as ToolError).message).toBe(
      'tool order: arguments do not match the schema: $: Invalid input: expected object, received array',
    );
  });
});

describe('parseJsonArgs', () => {
  it('TOOL-5 returns the parsed value or throws wrongArguments naming the tool', () => {
    expect(parseJsonArgs('{"a":[1,null]}', 't')).toEqual({ a: [1, null] });
    const error = thrownBy(() => parseJsonArgs('nope', 't'));
    expect(error).toBeInstanceOf(ToolError);
    expect(error).toMatchObject({ code: 'wrongArguments' });
    expect((error as ToolError).message).toMatch(/^tool t: arguments are not valid JSON: /);
  });
});
