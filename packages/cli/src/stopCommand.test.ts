import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent, tool } from '@agentlog/core';
import { scriptedModel, textResponse, toolCallResponse } from '@agentlog/core/testing';
import { createSqliteEventStore } from '@agentlog/store';
import { fixtureEvents } from '../../replay/src/test/fixtureSessions.js';
import { runCliIn } from './test/runCliIn.js';

const dir = mkdtempSync(join(tmpdir(), 'agentlog-cli-stop-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function cli(args: string[]) {
  return runCliIn(args, { cwd: dir, env: { NO_COLOR: '1' } });
}

describe('agentlog stop', () => {
  it('HITL-12 agentlog stop asks a live run to stop; it ends after its step, naming who asked', async () => {
    const db = join(dir, 'live.db');
    const store = createSqliteEventStore({ path: db });
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const slow = tool({
      name: 'slow',
      description: 'takes a while',
      parameters: z.object({}),
      execute: async () => {
        await released;
        return 'done';
      },
    });
    const model = scriptedModel([
      toolCallResponse([{ name: 'slow', id: 's1' }]),
      textResponse('never'),
    ]);
    const agent = await Agent.builder()
      .llm(model)
      .tools([slow])
      .store(store)
      .streamId('job')
      .build();
    const running = agent.query('go');
    await new Promise((resolve) => setTimeout(resolve, 20));
    const stopped = await cli([
      'stop',
      'job',
      '--by',
      'ana',
      '--reason',
      'wrong branch',
      '--store',
      db,
    ]);
    expect(stopped).toMatchObject({
      code: 0,
      stdout: 'asked the run of job to stop (by ana): wrong branch\n',
    });
    release();
    await running;
    expect(agent.stopReason()).toEqual({ kind: 'other', text: 'wrong branch' });
    expect(model.requests).toHaveLength(1);
    const inspected = await cli(['inspect', 'job', '--store', db]);
    expect(inspected.stdout).toContain('stop requested by ana: wrong branch');
    expect(inspected.stdout).toContain('requested by ana');
    const again = await cli(['stop', 'job', '--by', 'ana', '--store', db]);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('has no run in progress to stop');
    store.close?.();
  });

  it('REV-1 stop and inspect show who asked and why with visible escapes', async () => {
    const db = join(dir, 'hostile.db');
    const store = createSqliteEventStore({ path: db });
    // A run that started and has not stopped: a run in progress.
    const [runStarted] = await fixtureEvents('HITL-5-shadowed-approval.jsonl');
    await store.appendToStream('job', runStarted === undefined ? [] : [runStarted], {
      expectedRevision: 'noStream',
    });
    store.close?.();
    const by = 'ana\u001b[8m';
    const reason = 'wrong\u202e branch\nhidden line';
    const stopped = await cli(['stop', 'job', '--by', by, '--reason', reason, '--store', db]);
    expect(stopped).toEqual({
      code: 0,
      stdout:
        'asked the run of job to stop (by ana\\u001b[8m): wrong\\u202e branch\\nhidden line\n',
      stderr: '',
    });
    const inspected = await cli(['inspect', 'job', '--store', db]);
    expect(inspected.stdout).toContain(
      '■ stop requested by ana\\u001b[8m: wrong\\u202e branch\\nhidden line\n',
    );
    expect(inspected.stdout).not.toMatch(/[\u001b\u202e]/u);
  });

  it('HITL-12 agentlog stop needs --by and a known stream, and writes nothing otherwise', async () => {
    const db = join(dir, 'empty.db');
    const store = createSqliteEventStore({ path: db });
    store.close?.();
    expect((await cli(['stop', 'job', '--store', db])).stderr).toContain('stop needs --by <name>');
    expect((await cli(['stop', 'nope', '--by', 'ana', '--store', db])).stderr).toContain(
      'has no stream nope',
    );
  });
});
