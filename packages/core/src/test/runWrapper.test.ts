import { describe, expect, it } from 'vitest';
import { Agent } from '../agent/agent.js';
import type { ChatCompletion } from '../ports/chatCompletion.js';
import { scriptedModel, textResponse } from '../testing/scriptedModel.js';
import { rejection, testAgent } from './testAgent.js';

describe('aroundRun and mapModel', () => {
  it('runs each wrapper around each run, the first added outermost, and changes no event', async () => {
    const seen: string[] = [];
    const plain = await testAgent([textResponse('hi')]);
    await plain.agent.query('hello');
    const wrapped = await testAgent([textResponse('hi')], (b) =>
      b
        .aroundRun(async (run, { mode, agent }) => {
          seen.push(`outer ${mode} ${agent.streamId}`);
          await run();
          seen.push(`outer done ${agent.state().stopCause}`);
        })
        .aroundRun(async (run) => {
          seen.push('inner');
          await run();
        }),
    );
    await wrapped.agent.query('hello');
    expect(seen).toEqual(['outer query test', 'inner', 'outer done assistantAnswered']);
    expect(JSON.stringify(await wrapped.events())).toBe(JSON.stringify(await plain.events()));
  });

  it('rejects a run whose wrapper never calls run, or calls it twice', async () => {
    const skipping = await testAgent([textResponse('hi')], (b) => b.aroundRun(async () => {}));
    const skipped = await rejection(skipping.agent.query('hello'));
    expect(skipped.code).toBe('invalidConfiguration');
    expect(skipped.message).toContain('without calling run()');
    expect(await skipping.types()).toEqual([]);
    const twice = await testAgent([textResponse('hi')], (b) =>
      b.aroundRun(async (run) => {
        await run();
        await run();
      }),
    );
    expect((await rejection(twice.agent.query('hello'))).message).toContain('twice');
  });

  it('maps the model given before or after mapModel, keeping its secrets', async () => {
    const asked: string[] = [];
    const key = 'gw-secret-0123456789';
    const model: ChatCompletion = Object.defineProperty(
      scriptedModel([textResponse(`the key ${key}`)]),
      'secrets',
      { value: () => [key] },
    );
    const agent = await Agent.builder()
      .mapModel((inner) => ({
        complete: (request, options) => {
          asked.push('mapped');
          return inner.complete(request, options);
        },
        secrets: () => inner.secrets?.() ?? [],
      }))
      .llm(model)
      .build();
    await agent.query('hello');
    expect(asked).toEqual(['mapped']);
    expect(JSON.stringify(agent.history())).not.toContain(key);
  });

  it('refuses a mapModel or aroundRun that is not a function', () => {
    expect(() => Agent.builder().mapModel(undefined as never)).toThrow(/mapModel needs a function/);
    expect(() => Agent.builder().aroundRun(null as never)).toThrow(/aroundRun needs a function/);
  });
});
