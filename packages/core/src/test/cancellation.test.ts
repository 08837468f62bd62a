import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent } from '../agent/agent.js';
import { ToolFeedback } from '../messages/toolFeedback.js';
import { approvalRequired } from '../tools/approvalRequired.js';
import { tool } from '../tools/createTool.js';
import { textResponse, toolCallResponse } from '../testing/scriptedModel.js';
import { rejection, testAgent } from './testAgent.js';

// LOOP-10: the caller's signal reaches the model and every tool; an aborted run stops with
// cause `aborted` and resumes.

/** A tool that runs until the run's signal aborts it; `effects` counts its starts. */
function waitingTool(name: string, idempotent: boolean, effects: string[]) {
  return tool({
    name,
    description: 'waits for the signal',
    parameters: z.object({}),
    idempotent,
    execute: (_args, context) =>
      new Promise<string>((resolve, reject) => {
        effects.push(name);
        // Run again after the abort, it finishes: every run has a signal (its lease's, WRK-4).
        if (effects.filter((effect) => effect === name).length > 1) return resolve('again');
        if (context.signal === undefined) return resolve('no signal');
        context.signal.addEventListener('abort', () => reject(new Error('cut off')), {
          once: true,
        });
      }),
  });
}

describe('cancellation', () => {
  it('LOOP-10 a signal that is already aborted rejects at once and appends nothing', async () => {
    const { agent, types } = await testAgent([textResponse('never')]);
    const controller = new AbortController();
    controller.abort(new Error('user left'));
    const error = await rejection(agent.query('hi', { signal: controller.signal }));
    expect(error.code).toBe('aborted');
    expect(error.message).toBe(
      'the run was aborted before it started, and nothing was written: user left',
    );
    expect(await types()).toEqual([]);
  });

  it('LOOP-10 an abort while the model answers ends the run with cause aborted; its answer is not recorded; run() resumes', async () => {
    const controller = new AbortController();
    const { agent, types, model } = await testAgent([
      () => {
        controller.abort(new Error('stop button'));
        return textResponse('too late');
      },
      textResponse('second try'),
    ]);
    const error = await rejection(agent.query('hi', { signal: controller.signal }));
    expect(error.code).toBe('aborted');
    expect(agent.state().stopCause).toBe('aborted');
    expect(await types()).toEqual([
      'RunStarted',
      'UserMessageQueued',
      'UserMessageAdded',
      'AgentStopped',
    ]);
    await agent.run();
    expect(agent.history().at(-1)).toMatchObject({ role: 'assistant', text: 'second try' });
    expect(model.requests).toHaveLength(2);
  });

  it('LOOP-10 TOOL-7 a non-idempotent tool aborted mid-flight gets no outcome and asks a person before it runs again', async () => {
    const effects: string[] = [];
    const controller = new AbortController();
    const { agent, types } = await testAgent(
      [toolCallResponse([{ name: 'charge', id: 'c1' }]), textResponse('charged')],
      (b) => b.tools([waitingTool('charge', false, effects)]),
    );
    const running = agent.query('charge it', { signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 10));
    controller.abort(new Error('cancelled'));
    expect((await rejection(running)).code).toBe('aborted');
    expect((await types()).slice(-2)).toEqual(['ToolCallStarted', 'AgentStopped']);
    expect(agent.state().stopCause).toBe('aborted');
    const resumed = await rejection(agent.run());
    expect(resumed.code).toBe('unfulfilledToolCalls');
    expect(agent.pendingFeedback()).toMatchObject([{ toolCall: { id: 'c1' }, ambiguous: true }]);
    expect(effects).toEqual(['charge']);
  });

  it('LOOP-10 TOOL-7 a sibling that finished before the abort gets its outcome, so resuming never asks whether it may have run', async () => {
    const effects: string[] = [];
    const controller = new AbortController();
    const mail = tool({
      name: 'send_mail',
      description: 'sends at once',
      parameters: z.object({}),
      execute: () => {
        effects.push('send_mail');
        return 'sent';
      },
    });
    const { agent, events } = await testAgent(
      [
        toolCallResponse([
          { name: 'charge', id: 'c1' },
          { name: 'send_mail', id: 'm1' },
        ]),
        textResponse('done'),
      ],
      (b) => b.tools([waitingTool('charge', false, effects), mail]),
    );
    const running = agent.query('charge and mail', { signal: controller.signal });
    // Abort once both tools ran: the mail has finished, the charge still waits.
    while (effects.length < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    await new Promise((resolve) => setImmediate(resolve));
    controller.abort(new Error('cancelled'));
    expect((await rejection(running)).code).toBe('aborted');
    const outcomes = (await events()).filter(
      (event) => event.type === 'ToolCallCompleted' || event.type === 'ToolCallFailed',
    );
    expect(outcomes.map((event) => event.data)).toMatchObject([
      { toolCallId: 'm1', output: { kind: 'text', text: 'sent' } },
    ]);
    expect(agent.state().stopCause).toBe('aborted');
    const resumed = await rejection(agent.run());
    expect(resumed.code).toBe('unfulfilledToolCalls');
    // Only the charge the abort cut off is in doubt; the mail is known to have run once.
    expect(agent.pendingFeedback().map((pending) => pending.toolCall.id)).toEqual(['c1']);
    expect(effects).toEqual(['charge', 'send_mail']);
  });

  it('LOOP-10 TOOL-7 an idempotent tool aborted mid-flight runs again on resume', async () => {
    const effects: string[] = [];
    const controller = new AbortController();
    const { agent } = await testAgent(
      [toolCallResponse([{ name: 'lookup', id: 'l1' }]), textResponse('found')],
      (b) => b.tools([waitingTool('lookup', true, effects)]),
    );
    const running = agent.query('look', { signal: controller.signal });
    await new Promise((resolve) => setTimeout(resolve, 10));
    controller.abort();
    expect((await rejection(running)).code).toBe('aborted');
    await agent.run();
    expect(effects).toEqual(['lookup', 'lookup']);
    expect(agent.history().at(-1)).toMatchObject({ role: 'assistant', text: 'found' });
  });

  it('LOOP-10 an abort while the agent waits for an approval changes nothing', async () => {
    const controller = new AbortController();
    const deploy = approvalRequired(
      tool({
        name: 'deploy',
        description: 'd',
        parameters: z.object({}),
        execute: () => 'deployed',
      }),
    );
    const { agent, types } = await testAgent(
      [toolCallResponse([{ name: 'deploy', id: 'd1' }]), textResponse('live')],
      (b) => b.tools([deploy]),
    );
    await agent.query('deploy', { signal: controller.signal });
    const before = await types();
    controller.abort();
    expect(await types()).toEqual(before);
    await agent.context().feedbackReceived({ id: 'd1', name: 'deploy' }, ToolFeedback.approved());
    await agent.run();
    expect(agent.stopReason()?.kind).toBe('noNewMessages');
  });

  it('LOOP-10 onTextDelta and onStream see the chunks of a streamed answer; chunks are not events', async () => {
    const streaming = {
      complete: (_request: unknown, options: { onChunk?: (delta: string) => void }) => {
        for (const piece of ['Hel', 'lo']) options.onChunk?.(piece);
        return Promise.resolve(textResponse('Hello'));
      },
    };
    const seen: string[] = [];
    const hooked: string[] = [];
    const agent = await Agent.builder()
      .llm(streaming)
      .onStream((_agent, chunk) => void hooked.push(`${chunk.completion}:${chunk.delta}`))
      .build();
    await agent.query('hi', {
      onTextDelta: (delta, context) => void seen.push(`${context.completion}:${delta}`),
    });
    expect(seen).toEqual(['1:Hel', '1:lo']);
    expect(hooked).toEqual(['1:Hel', '1:lo']);
    expect(agent.history().at(-1)).toMatchObject({ text: 'Hello' });
  });
});
