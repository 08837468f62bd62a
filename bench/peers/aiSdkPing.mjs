// AI SDK 7: generateText with the v7 mock model from `ai/test` and a `ping` tool, N steps; run
// cold, then warm (a fresh model and tool each time).
import { generateText, isStepCount, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { z } from 'zod';
import { reportColdAndWarm, stepsFromArgv } from './childReport.mjs';

const steps = stepsFromArgv();
const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

async function runOnce() {
  let calls = 0;
  const model = new MockLanguageModelV4({
    doGenerate: async () => {
      // The mock keeps every call's options; drop them so memory reflects the SDK, not the mock.
      model.doGenerateCalls.length = 0;
      calls += 1;
      if (calls <= steps) {
        return {
          content: [
            { type: 'tool-call', toolCallId: `call-${calls}`, toolName: 'ping', input: '{}' },
          ],
          finishReason: { unified: 'tool-calls', raw: undefined },
          usage,
          warnings: [],
        };
      }
      return {
        content: [{ type: 'text', text: 'done' }],
        finishReason: { unified: 'stop', raw: undefined },
        usage,
        warnings: [],
      };
    },
  });
  let pings = 0;
  const ping = tool({
    description: 'Answers pong.',
    inputSchema: z.object({}),
    execute: async () => {
      pings += 1;
      return 'pong';
    },
  });

  const start = performance.now();
  const result = await generateText({
    model,
    tools: { ping },
    stopWhen: isStepCount(steps + 1),
    prompt: 'go',
  });
  const seconds = (performance.now() - start) / 1_000;
  const toolCalls = result.steps.reduce((sum, step) => sum + step.toolCalls.length, 0);
  return { seconds, toolCalls: Math.min(pings, toolCalls), finalText: result.text };
}

await reportColdAndWarm(steps, runOnce);
