import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tool } from '../tools/createTool.js';
import { textResponse, toolCallResponse } from '../testing/scriptedModel.js';
import { testAgent } from './testAgent.js';

// LOOP-11: the finish reason, a refusal and reasoning are recorded, and end the run honestly.

const runs: string[] = [];
const write = tool({
  name: 'write',
  description: 'writes',
  parameters: z.object({ text: z.string() }),
  execute: ({ text }) => {
    runs.push(text);
    return 'written';
  },
});

describe('model outcomes', () => {
  it('LOOP-11 a refusal enters the history as the refusal and ends the run with modelRefused', async () => {
    const { agent, events, model } = await testAgent([
      { toolCalls: [], refusal: "I can't help with that.", finishReason: 'stop' },
    ]);
    await agent.query('something bad');
    expect(agent.state().stopCause).toBe('modelRefused');
    expect(agent.stopReason()).toEqual({ kind: 'noNewMessages' });
    expect(agent.history().at(-1)).toEqual({
      role: 'assistant',
      refusal: "I can't help with that.",
      toolCalls: [],
    });
    const responded = (await events()).find((event) => event.type === 'ModelResponded');
    expect(responded?.data).toMatchObject({
      response: { refusal: "I can't help with that.", finishReason: 'stop' },
    });
    expect(model.requests).toHaveLength(1);
  });

  it('LOOP-11 a tool call cut by the token limit is not run, not a failure, and ends the run with tokenLimit', async () => {
    runs.length = 0;
    const cut = {
      ...toolCallResponse([{ name: 'write', args: '{"text":"hal', id: 'w1' }]),
      finishReason: 'length' as const,
    };
    const { agent, types } = await testAgent([cut, textResponse('never')], (b) => b.tools([write]));
    await agent.query('write a lot');
    expect(agent.state().stopCause).toBe('tokenLimit');
    expect(runs).toEqual([]);
    const recorded = await types();
    expect(recorded).not.toContain('ToolCallFailed');
    expect(recorded).not.toContain('ToolCallStarted');
    expect(agent.state().failureCounts).toEqual({});
    // The answer is kept, as the model sent it, for the audit.
    expect(recorded.slice(-2)).toEqual(['ModelResponded', 'AgentStopped']);
  });

  it('LOOP-11 a text cut by the token limit says so; a content filter has its own cause', async () => {
    const long = await testAgent([{ ...textResponse('and then'), finishReason: 'length' }]);
    await long.agent.query('tell me everything');
    expect(long.agent.state().stopCause).toBe('tokenLimit');
    const filtered = await testAgent([{ toolCalls: [], finishReason: 'contentFilter' }]);
    await filtered.agent.query('q');
    expect(filtered.agent.state().stopCause).toBe('contentFiltered');
  });

  it('LOOP-11 reasoning content is kept in ModelResponded and not sent back to the model', async () => {
    const { agent, events, model } = await testAgent(
      [
        {
          ...toolCallResponse([{ name: 'write', args: { text: 'x' }, id: 'w1' }]),
          reasoning: 'first think',
        },
        textResponse('done'),
      ],
      (b) => b.tools([write]),
    );
    await agent.query('q');
    const responded = (await events()).find((event) => event.type === 'ModelResponded');
    expect(responded?.data).toMatchObject({ response: { reasoning: 'first think' } });
    expect(JSON.stringify(model.requests[1])).not.toContain('first think');
  });
});
