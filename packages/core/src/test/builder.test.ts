import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent } from '../agent/agent.js';
import type { Tool } from '../api/tool.js';
import { tool } from '../tools/createTool.js';
import { scriptedModel, textResponse } from '../testing/scriptedModel.js';
import { stopTool } from '../tools/stopTool.js';
import { rejection } from './testAgent.js';

const named = (name: string) =>
  tool({ name, description: name, parameters: z.object({}), execute: () => name });

describe('building an agent', () => {
  it('TOOL-1 two tools with one name fail at build() with a message naming the tool', async () => {
    const error = await rejection(
      Agent.builder()
        .llm(scriptedModel([]))
        .tools([named('search'), named('search')])
        .build(),
    );
    expect(error.code).toBe('invalidConfiguration');
    expect(error.message).toBe(
      'tool search: two tools have this name; give each tool its own name',
    );
  });

  it('TOOL-1 a hand-written tool with an invalid spec fails at build() naming the tool', async () => {
    const broken: Tool = {
      name: 'broken',
      spec: () => ({ name: 'broken', description: 'x', parameters: { type: 'string' } }),
      invoke: () => 'x',
    };
    await expect(Agent.builder().llm(scriptedModel([])).tools([broken]).build()).rejects.toThrow(
      'tool broken: its parameters must be a JSON schema of type object',
    );
    const misnamed: Tool = {
      ...broken,
      spec: () => ({ name: 'other', description: 'x', parameters: { type: 'object' } }),
    };
    await expect(Agent.builder().llm(scriptedModel([])).tools([misnamed]).build()).rejects.toThrow(
      'tool broken: its spec is named other',
    );
    const badName: Tool = { ...broken, name: 'has space' };
    await expect(Agent.builder().llm(scriptedModel([])).tools([badName]).build()).rejects.toThrow(
      /tool has space: a tool name is/,
    );
  });

  it('TOOL-1 an invalid zod schema fails when the tool is made, naming the tool', () => {
    expect(() =>
      tool({
        name: 'when',
        description: 'd',
        parameters: z.object({ at: z.date() }),
        execute: () => 'x',
      }),
    ).toThrow(/when/);
  });

  it('LOOP-5 build() refuses a model that is missing and limits that are not whole numbers', async () => {
    await expect(Agent.builder().build()).rejects.toThrow(
      'the agent needs a model: call llm(model) before build()',
    );
    await expect(Agent.builder().llm(scriptedModel([])).limit(-1).build()).rejects.toThrow(
      'limit must be a whole number of 0 or more, got -1',
    );
    await expect(
      Agent.builder().llm(scriptedModel([])).toolRetryLimit(1.5).build(),
    ).rejects.toThrow(/toolRetryLimit/);
  });

  it('STOP-4 a tool named stop passed to tools() loses to the default one without an error', async () => {
    const model = scriptedModel([textResponse('ok')]);
    const agent = await Agent.builder()
      .llm(model)
      .tools([named('stop'), named('other')])
      .build();
    await agent.query('q');
    expect(model.requests[0]?.tools).toEqual([named('other').spec(), stopTool().spec()]);
    expect(stopTool().spec().description).not.toBe('stop');
  });
});
