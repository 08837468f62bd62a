import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent } from '../agent/agent.js';
import { tool } from '../tools/createTool.js';
import { StopWithArgs } from '../tools/stopWithArgs.js';
import { scriptedModel, toolCallResponse } from '../testing/scriptedModel.js';

// The README's 20-line example, run on a scripted model so it stays true.
describe('the README example', () => {
  it('STOP-2 a structured result through a fromZod stop schema, corrected once by the model', async () => {
    const Weather = z.object({ city: z.string(), celsius: z.number(), summary: z.string() });
    const lookup = tool({
      name: 'lookup_weather',
      description: 'Current weather for a city.',
      parameters: z.object({ city: z.string() }),
      execute: ({ city }) => `${city}: 18°C, light rain`,
    });
    const model = scriptedModel([
      toolCallResponse([{ name: 'lookup_weather', args: { city: 'Ghent' } }]),
      toolCallResponse([{ name: 'stop', args: { city: 'Ghent', celsius: '18' } }]),
      toolCallResponse([
        { name: 'stop', args: { city: 'Ghent', celsius: 18, summary: 'Light rain' } },
      ]),
    ]);
    const agent = await Agent.builder()
      .llm(model)
      .systemPrompt('Answer with the `stop` tool.')
      .withoutDefaultStopTool()
      .tools([StopWithArgs.fromZod(Weather), lookup])
      .build();

    await agent.query('What is the weather in Ghent?');
    const reason = agent.stopReason();
    expect(reason?.kind).toBe('requestedByTool');
    if (reason?.kind !== 'requestedByTool') return;
    expect(Weather.parse(reason.payload)).toEqual({
      city: 'Ghent',
      celsius: 18,
      summary: 'Light rain',
    });
    expect(model.requests[2]?.messages.at(-1)).toMatchObject({
      role: 'tool',
      output: { kind: 'fail' },
    });
    model.assertDone();
  });
});
