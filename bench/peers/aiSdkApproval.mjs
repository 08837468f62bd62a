// AI SDK 7: the approval cycle C times. Each cycle a user message, a tool call that needs the
// user's approval (`toolApproval: 'user-approval'`), the conversation saved and loaded through
// JSON.stringify/JSON.parse, a `tool-approval-response`, the tool runs, the model answers text;
// the conversation goes through JSON again before the next cycle.
import { generateText, tool } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { z } from 'zod';

const cycles = Number(process.argv[2]);
if (!Number.isInteger(cycles) || cycles < 1) throw new Error(`bad cycle count: ${process.argv[2]}`);
const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};
let asked = 0;
const model = new MockLanguageModelV4({
  doGenerate: async ({ prompt }) => {
    model.doGenerateCalls.length = 0;
    const last = prompt.at(-1);
    if (last?.role === 'user') {
      asked += 1;
      return {
        content: [
          {
            type: 'tool-call',
            toolCallId: `approve-${asked}`,
            toolName: 'approve_ping',
            input: '{}',
          },
        ],
        finishReason: { unified: 'tool-calls', raw: undefined },
        usage,
        warnings: [],
      };
    }
    if (last?.role === 'tool') {
      return {
        content: [{ type: 'text', text: 'done' }],
        finishReason: { unified: 'stop', raw: undefined },
        usage,
        warnings: [],
      };
    }
    throw new Error(`unexpected prompt end: ${JSON.stringify(last)}`);
  },
});
let runs = 0;
const approvePing = tool({
  description: 'Answers pong once a person approves.',
  inputSchema: z.object({}),
  execute: async () => {
    runs += 1;
    return 'pong';
  },
});
const options = {
  model,
  tools: { approve_ping: approvePing },
  toolApproval: { approve_ping: 'user-approval' },
};

let saved = JSON.stringify([]);
const times = [];
for (let cycle = 1; cycle <= cycles; cycle += 1) {
  const start = performance.now();
  let messages = JSON.parse(saved);
  messages.push({ role: 'user', content: 'go' });
  const asking = await generateText({ ...options, messages });
  messages.push(...asking.responseMessages);
  const requests = asking.content.filter(
    (part) => part.type === 'tool-approval-request' && !part.isAutomatic,
  );
  if (requests.length !== 1)
    throw new Error(`cycle ${cycle}: ${requests.length} approval requests`);
  saved = JSON.stringify(messages);

  messages = JSON.parse(saved);
  messages.push({
    role: 'tool',
    content: [
      {
        type: 'tool-approval-response',
        approvalId: requests[0].approvalId,
        approved: true,
        reason: 'by bench',
      },
    ],
  });
  const answering = await generateText({ ...options, messages });
  messages.push(...answering.responseMessages);
  saved = JSON.stringify(messages);
  times.push((performance.now() - start) / 1_000);
  if (runs !== cycle || answering.text !== 'done') {
    throw new Error(
      `cycle ${cycle}: the tool ran ${runs} times; the answer was ${JSON.stringify(answering.text)}`,
    );
  }
}
const seconds = times.reduce((sum, time) => sum + time, 0);
process.stdout.write(
  `${JSON.stringify({ seconds, maxRssKb: process.resourceUsage().maxRSS, cycles: times })}\n`,
);
