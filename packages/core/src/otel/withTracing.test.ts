import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent } from '../agent/agent.js';
import { CompletionError } from '../errors/completionError.js';
import { ToolFeedback } from '../messages/toolFeedback.js';
import { ToolOutput } from '../messages/toolOutput.js';
import type { CompletionResponse } from '../ports/chatCompletion.js';
import { approvalRequired } from '../tools/approvalRequired.js';
import { tool } from '../tools/createTool.js';
import { counterIds, fixedClock } from '../testing/fixedClock.js';
import { scriptedModel, textResponse, toolCallResponse } from '../testing/scriptedModel.js';
import { idOf, parentOf, spanRecorder } from '../test/spanRecorder.js';
import { rejection, testAgent } from '../test/testAgent.js';
import { withTracing } from './index.js';

const lookup = tool({
  name: 'lookup',
  description: 'Looks a word up.',
  parameters: z.object({ word: z.string() }),
  execute: ({ word }) => `${word}: a word`,
});

const usage = (promptTokens: number, completionTokens: number) => ({
  promptTokens,
  completionTokens,
  totalTokens: promptTokens + completionTokens,
});

const callLookup: CompletionResponse = {
  ...toolCallResponse([{ name: 'lookup', args: { word: 'span' }, id: 'c1' }]),
  model: 'gpt-test-0613',
  usage: usage(12, 5),
  finishReason: 'toolCalls',
};
const answer: CompletionResponse = {
  ...textResponse('done'),
  model: 'gpt-test-0613',
  usage: usage(30, 2),
  finishReason: 'stop',
};

describe('withTracing', () => {
  it('traces a run: invoke_agent over a chat span per completion and an execute_tool span per call', async () => {
    const recorder = spanRecorder();
    const { agent } = await testAgent([callLookup, answer], (b) =>
      withTracing(b.tools([lookup]), recorder.tracer, {
        agentName: 'helper',
        provider: 'openai',
        model: 'gpt-test',
      }),
    );
    await agent.query('what is a span?');
    expect(recorder.spans().map((span) => span.name)).toEqual([
      'chat gpt-test',
      'execute_tool lookup',
      'chat gpt-test',
      'invoke_agent helper',
    ]);
    const run = recorder.span('invoke_agent helper');
    expect(run.kind).toBe(SpanKind.INTERNAL);
    expect(parentOf(run)).toBeUndefined();
    expect(run.attributes).toEqual({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'helper',
      'gen_ai.provider.name': 'openai',
      'gen_ai.system': 'openai',
      'gen_ai.conversation.id': 'test',
      'agentlog.stream.id': 'test',
      'agentlog.run.mode': 'query',
      'agentlog.stop.cause': 'assistantAnswered',
      'agentlog.stop.reason': 'noNewMessages',
    });
    expect(run.status.code).toBe(SpanStatusCode.UNSET);
    for (const child of recorder.spans().filter((span) => span !== run)) {
      expect(parentOf(child)).toBe(idOf(run));
      expect(child.spanContext().traceId).toBe(run.spanContext().traceId);
    }
    const [first, second] = recorder.spans().filter((span) => span.name === 'chat gpt-test');
    expect(first?.kind).toBe(SpanKind.CLIENT);
    expect(first?.attributes).toEqual({
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'gpt-test',
      'gen_ai.provider.name': 'openai',
      'gen_ai.system': 'openai',
      'gen_ai.response.model': 'gpt-test-0613',
      'gen_ai.usage.input_tokens': 12,
      'gen_ai.usage.output_tokens': 5,
      'gen_ai.response.finish_reasons': ['tool_calls'],
    });
    expect(second?.attributes).toMatchObject({
      'gen_ai.usage.input_tokens': 30,
      'gen_ai.usage.output_tokens': 2,
      'gen_ai.response.finish_reasons': ['stop'],
    });
    expect(recorder.span('execute_tool lookup').attributes).toEqual({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'lookup',
      'gen_ai.tool.call.id': 'c1',
      'gen_ai.tool.type': 'function',
      'agentlog.tool.outcome': 'text',
    });
    expect(recorder.open()).toBe(0);
  });

  it('wraps the model and tools given after it, and names a run without an agent name invoke_agent', async () => {
    const recorder = spanRecorder();
    const model = Object.assign(scriptedModel([callLookup, answer]), { model: 'gpt-own' });
    const agent = await withTracing(Agent.builder(), recorder.tracer)
      .llm(model)
      .tools([lookup])
      .clock(fixedClock())
      .ids(counterIds())
      .build();
    await agent.queryOnce('look it up');
    await agent.runOnce();
    expect(recorder.spans().map((span) => span.name)).toEqual([
      'chat gpt-own',
      'execute_tool lookup',
      'invoke_agent',
      'chat gpt-own',
      'invoke_agent',
    ]);
    const runs = recorder.spans().filter((span) => span.name === 'invoke_agent');
    expect(runs.map((span) => span.attributes['agentlog.run.mode'])).toEqual([
      'queryOnce',
      'runOnce',
    ]);
    expect(runs.map((span) => span.attributes['agentlog.stop.cause'])).toEqual([
      'singleStep',
      'singleStep',
    ]);
    expect(recorder.spans()[0]?.attributes['gen_ai.request.model']).toBe('gpt-own');
    expect(recorder.spans()[0]?.attributes).not.toHaveProperty('gen_ai.provider.name');
  });

  it('records a stop for approval, and the approved call under the resumed run', async () => {
    const recorder = spanRecorder();
    const { agent } = await testAgent([callLookup, answer], (b) =>
      withTracing(b.tools([approvalRequired(lookup)]), recorder.tracer),
    );
    await agent.query('what is a span?');
    const waiting = recorder.span('invoke_agent');
    expect(waiting.attributes).toMatchObject({
      'agentlog.stop.cause': 'feedbackRequired',
      'agentlog.stop.reason': 'feedbackRequired',
    });
    expect(recorder.span('execute_tool lookup').attributes['agentlog.tool.outcome']).toBe(
      'feedbackRequired',
    );
    expect(recorder.open()).toBe(0);

    await agent.context().feedbackReceived({ id: 'c1', name: 'lookup' }, ToolFeedback.approved());
    await agent.run();
    const runs = recorder.spans().filter((span) => span.name === 'invoke_agent');
    expect(runs).toHaveLength(2);
    const resumed = runs[1]!;
    expect(resumed.attributes).toMatchObject({
      'agentlog.run.mode': 'run',
      'agentlog.stop.cause': 'assistantAnswered',
    });
    const calls = recorder.spans().filter((span) => span.name === 'execute_tool lookup');
    expect(calls.map((span) => span.attributes['agentlog.tool.outcome'])).toEqual([
      'feedbackRequired',
      'text',
    ]);
    expect(parentOf(calls[0]!)).toBe(idOf(waiting));
    expect(parentOf(calls[1]!)).toBe(idOf(resumed));
    expect(recorder.open()).toBe(0);
  });

  it('marks a failing model: chat ERROR with the failure kind, the run ERROR with completionFailed', async () => {
    const recorder = spanRecorder();
    const failure = new CompletionError('rateLimited', 'slow down', { status: 429 });
    const { agent } = await testAgent([{ throws: failure }], (b) =>
      withTracing(b, recorder.tracer, { model: 'gpt-test' }),
    );
    expect((await rejection(agent.query('hi'))).code).toBe('completionFailed');
    const chat = recorder.span('chat gpt-test');
    expect(chat.status).toEqual({ code: SpanStatusCode.ERROR, message: 'slow down' });
    expect(chat.attributes['error.type']).toBe('rateLimited');
    const run = recorder.span('invoke_agent');
    expect(run.status.code).toBe(SpanStatusCode.ERROR);
    expect(run.attributes).toMatchObject({
      'error.type': 'completionFailed',
      'agentlog.stop.cause': 'error',
      'agentlog.stop.reason': 'error',
    });
    expect(recorder.open()).toBe(0);
  });

  it('classifies a plain model error by its HTTP status', async () => {
    const recorder = spanRecorder();
    const failure = Object.assign(new Error('upstream down'), { status: 503 });
    const { agent } = await testAgent([{ throws: failure }], (b) =>
      withTracing(b, recorder.tracer),
    );
    await rejection(agent.query('hi'));
    expect(recorder.span('chat').attributes['error.type']).toBe('serverError');
  });

  it('marks a tool that throws or returns fail ERROR; the run goes on and ends well', async () => {
    const recorder = spanRecorder();
    const broken = tool({
      name: 'broken',
      description: 'Always throws.',
      parameters: z.object({}),
      execute: () => {
        throw new Error('boom');
      },
    });
    const refusing = tool({
      name: 'refusing',
      description: 'Always fails.',
      parameters: z.object({}),
      execute: () => ToolOutput.fail('not today'),
    });
    const calls = toolCallResponse([
      { name: 'broken', args: {}, id: 'b1' },
      { name: 'refusing', args: {}, id: 'r1' },
    ]);
    const { agent } = await testAgent([calls, textResponse('gave up')], (b) =>
      withTracing(b.tools([broken, refusing]), recorder.tracer),
    );
    await agent.query('try');
    const thrown = recorder.span('execute_tool broken');
    expect(thrown.status).toEqual({ code: SpanStatusCode.ERROR, message: 'boom' });
    expect(thrown.attributes).toMatchObject({
      'agentlog.tool.outcome': 'thrown',
      'error.type': 'executionFailed',
    });
    const failed = recorder.span('execute_tool refusing');
    expect(failed.status.code).toBe(SpanStatusCode.ERROR);
    expect(failed.attributes).toMatchObject({
      'agentlog.tool.outcome': 'fail',
      'error.type': 'fail',
    });
    expect(recorder.span('invoke_agent').status.code).toBe(SpanStatusCode.UNSET);
    expect(recorder.open()).toBe(0);
  });

  it('nests the run of an agent used as a tool under that tool span', async () => {
    const recorder = spanRecorder();
    const inner = await withTracing(Agent.builder(), recorder.tracer, { agentName: 'inner' })
      .llm(scriptedModel([textResponse('inner answer')]))
      .build();
    const ask = tool({
      name: 'ask_inner',
      description: 'Asks the inner agent.',
      parameters: z.object({}),
      execute: async () => {
        await inner.query('help');
        return 'asked';
      },
    });
    const { agent } = await testAgent(
      [toolCallResponse([{ name: 'ask_inner', args: {}, id: 'a1' }]), textResponse('done')],
      (b) => withTracing(b.tools([ask]), recorder.tracer, { agentName: 'outer' }),
    );
    await agent.query('delegate');
    const call = recorder.span('execute_tool ask_inner');
    expect(parentOf(recorder.span('invoke_agent inner'))).toBe(idOf(call));
    expect(parentOf(call)).toBe(idOf(recorder.span('invoke_agent outer')));
    expect(recorder.open()).toBe(0);
  });

  it('refuses to trace one builder twice', () => {
    const recorder = spanRecorder();
    const builder = withTracing(Agent.builder(), recorder.tracer);
    expect(() => withTracing(builder, recorder.tracer)).toThrow(/already applied/);
  });
});
