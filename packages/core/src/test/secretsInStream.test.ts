import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent } from '../agent/agent.js';
import type { ChatCompletion } from '../ports/chatCompletion.js';
import { createInMemoryEventStore } from '../store/inMemoryEventStore.js';
import { tool } from '../tools/createTool.js';
import { scriptedModel, textResponse, toolCallResponse } from '../testing/scriptedModel.js';

// RPL-3: a key the model or a tool echoes is never stored.

describe('secrets in the stream', () => {
  for (const key of ['sk-proj-' + 'A1b2C3d4'.repeat(5), '0123456789abcdef0123456789abcdef']) {
    it(`RPL-3 the model's configured key is masked wherever the model or a tool echoes it (${key.slice(0, 6)}…)`, async () => {
      const inner = scriptedModel([
        toolCallResponse(
          [{ name: 'echo', args: { text: `use ${key}` }, id: 'e1' }],
          `my key is ${key}`,
        ),
        textResponse(`done with ${key}`),
      ]);
      const model: ChatCompletion = {
        complete: (request, options) => inner.complete(request, options),
        secrets: () => [key],
      };
      const echo = tool({
        name: 'echo',
        description: 'echoes',
        parameters: z.object({ text: z.string() }),
        execute: ({ text }) => `echo: ${text} and ${key}`,
      });
      const store = createInMemoryEventStore();
      const agent = await Agent.builder().llm(model).tools([echo]).store(store).build();
      await agent.query(`here is ${key}`);
      const stored = JSON.stringify(await store.readStream(agent.streamId));
      expect(stored).not.toContain(key);
      expect(stored).toContain('[redacted]');
      expect(JSON.stringify(agent.state().history)).not.toContain(key);
    });
  }
});
