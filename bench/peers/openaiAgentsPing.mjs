// OpenAI Agents JS: an Agent with a `ping` tool, run by `run()` on a fake Model, N steps; run
// cold, then warm (a fresh model, tool and Agent each time).
import { Agent, Usage, run, setTracingDisabled, tool } from '@openai/agents';
import { z } from 'zod';
import { reportColdAndWarm, stepsFromArgv } from './childReport.mjs';

setTracingDisabled(true);
const steps = stepsFromArgv();

async function runOnce() {
  let calls = 0;
  /** The `Model` interface of @openai/agents-core: one scripted response per turn. */
  const model = {
    async getResponse() {
      calls += 1;
      const output =
        calls <= steps
          ? [
              {
                type: 'function_call',
                callId: `call-${calls}`,
                name: 'ping',
                arguments: '{}',
                status: 'completed',
              },
            ]
          : [
              {
                type: 'message',
                role: 'assistant',
                status: 'completed',
                content: [{ type: 'output_text', text: 'done' }],
              },
            ];
      return { usage: new Usage(), output };
    },
    // eslint-disable-next-line require-yield
    async *getStreamedResponse() {
      throw new Error('the bench does not stream');
    },
  };
  let pings = 0;
  const ping = tool({
    name: 'ping',
    description: 'Answers pong.',
    parameters: z.object({}),
    execute: async () => {
      pings += 1;
      return 'pong';
    },
  });
  const agent = new Agent({ name: 'bench', instructions: 'Call ping.', model, tools: [ping] });

  const start = performance.now();
  const result = await run(agent, 'go', { maxTurns: steps + 10 });
  const seconds = (performance.now() - start) / 1_000;
  return { seconds, toolCalls: pings, finalText: result.finalOutput };
}

await reportColdAndWarm(steps, runOnce);
