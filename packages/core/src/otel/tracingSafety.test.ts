import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SpanStatusCode } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AgentBuilder } from '../agent/agentBuilder.js';
import type { ChatCompletion } from '../ports/chatCompletion.js';
import { ToolFeedback } from '../messages/toolFeedback.js';
import { approvalRequired } from '../tools/approvalRequired.js';
import { tool } from '../tools/createTool.js';
import { scriptedModel, textResponse, toolCallResponse } from '../testing/scriptedModel.js';
import { spanRecorder, type SpanRecorder } from '../test/spanRecorder.js';
import { rejection, testAgent } from '../test/testAgent.js';
import { withTracing } from './index.js';

// A key no generic pattern (`sk-`, `Bearer`) catches: only the model's `secrets()` mask it.
const KEY = 'gw-live-0123456789abcdefXYZ';

/** A tool that echoes the key, fails with it, and waits for approval on its second call. */
const leaky = tool({
  name: 'leaky',
  description: 'Says too much.',
  parameters: z.object({ mode: z.string() }),
  execute: ({ mode }) => {
    if (mode === 'throw') throw new Error(`cannot reach the API with ${KEY}`);
    return `the key is ${KEY}`;
  },
});

/** One session: tool calls (one failing), a stop for approval, the resumed run, a failing model. */
async function session(trace: (builder: AgentBuilder) => AgentBuilder) {
  const model: ChatCompletion = Object.defineProperty(
    scriptedModel([
      toolCallResponse([
        { name: 'leaky', args: { mode: 'say' }, id: 'c1' },
        { name: 'leaky', args: { mode: 'throw' }, id: 'c2' },
      ]),
      // Approved, it throws in the resumed run, before the model is asked.
      toolCallResponse([{ name: 'gated', args: { mode: 'throw' }, id: 'c3' }]),
      textResponse('done'),
      { throws: new Error(`401 for key ${KEY}`) },
    ]),
    'secrets',
    { value: () => [KEY] },
  );
  const gated = approvalRequired({
    ...leaky,
    name: 'gated',
    spec: () => ({ ...leaky.spec(), name: 'gated' }),
  });
  const { agent, events } = await testAgent([], (b) => trace(b.llm(model).tools([leaky, gated])));
  await agent.query('go');
  await agent.context().feedbackReceived({ id: 'c3', name: 'gated' }, ToolFeedback.approved());
  await agent.run();
  const failed = await rejection(agent.query('again'));
  return { stored: JSON.stringify(await events()), failed };
}

function everything(recorder: SpanRecorder): string {
  return JSON.stringify(
    recorder.spans().map((span) => ({
      name: span.name,
      attributes: span.attributes,
      status: span.status,
      events: span.events,
      links: span.links,
    })),
  );
}

describe('tracing changes nothing and leaks nothing', () => {
  it('stores the same events, byte for byte, with and without tracing', async () => {
    const recorder = spanRecorder();
    const plain = await session((b) => b);
    const traced = await session((b) => withTracing(b, recorder.tracer, { agentName: 'a' }));
    expect(traced.stored).toBe(plain.stored);
    expect(traced.failed.message).toBe(plain.failed.message);
    expect(plain.stored).not.toContain(KEY);
    expect(recorder.spans().filter((span) => span.name === 'invoke_agent a')).toHaveLength(3);
    expect(recorder.open()).toBe(0);
  });

  it('puts no API key in any span name, attribute, status or event', async () => {
    const recorder = spanRecorder();
    await session((b) => withTracing(b, recorder.tracer));
    const exported = everything(recorder);
    expect(exported).toContain('[redacted]');
    expect(exported).not.toContain(KEY);
    // Tool arguments and message contents are not recorded either.
    expect(exported).not.toContain('"mode"');
    expect(exported).not.toContain('the key is');
    const failedRun = recorder.spans().at(-1);
    expect(failedRun?.status.code).toBe(SpanStatusCode.ERROR);
    expect(failedRun?.status.message).toContain('401 for key [redacted]');
  });

  it('ends every span of a run aborted while its tool runs', async () => {
    const recorder = spanRecorder();
    const controller = new AbortController();
    let invocations = 0;
    const waiting = tool({
      name: 'wait',
      description: 'Waits for the signal.',
      parameters: z.object({}),
      idempotent: true,
      execute: (_args, context) =>
        new Promise<string>((resolve, reject) => {
          invocations += 1;
          // Resumed, it answers at once (every run has a signal: its lease's, WRK-4).
          if (invocations > 1 || context.signal === undefined) return resolve('resumed');
          context.signal.addEventListener('abort', () => reject(new Error('cut off')));
        }),
    });
    const { agent } = await testAgent(
      [toolCallResponse([{ name: 'wait', args: {}, id: 'w1' }]), textResponse('waited')],
      (b) => withTracing(b.tools([waiting]), recorder.tracer),
    );
    const running = agent.query('wait', { signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 10));
    const openWhileWaiting = recorder.open();
    controller.abort(new Error('cancelled'));
    expect((await rejection(running)).code).toBe('aborted');
    expect(openWhileWaiting).toBe(2);
    expect(recorder.open()).toBe(0);
    expect(recorder.span('execute_tool wait').status.code).toBe(SpanStatusCode.ERROR);
    expect(recorder.span('invoke_agent').attributes).toMatchObject({
      'error.type': 'aborted',
      'agentlog.stop.cause': 'aborted',
    });
    await agent.run();
    expect(recorder.spans().filter((span) => span.name === 'invoke_agent')).toHaveLength(2);
    expect(recorder.open()).toBe(0);
  });

  it('gives a run rejected before it starts an ERROR span with no stop cause', async () => {
    const recorder = spanRecorder();
    const { agent } = await testAgent([], (b) => withTracing(b, recorder.tracer));
    expect((await rejection(agent.run())).code).toBe('nothingToRun');
    const run = recorder.span('invoke_agent');
    expect(run.attributes['error.type']).toBe('nothingToRun');
    expect(run.attributes).not.toHaveProperty('agentlog.stop.cause');
  });
});

describe('loading @opentelemetry/api', () => {
  // Its absence is tested in a real process: packages/store/src/test/optionalPeers.test.ts.

  it('is imported by the otel entry alone: no module outside src/otel loads it', () => {
    const root = fileURLToPath(new URL('..', import.meta.url));
    const loaders = sources(root).filter(
      (file) =>
        !file.endsWith('.test.ts') &&
        /from '@opentelemetry\/api'|import\('@opentelemetry\/api'\)/.test(
          readFileSync(file, 'utf8').replace(/import type [^;]+;/g, ''),
        ),
    );
    expect(loaders.map((file) => file.slice(root.length))).toEqual([join('otel', 'otelApi.ts')]);
  });
});

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sources(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}
