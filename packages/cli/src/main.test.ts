import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Agent, createInMemoryEventStore, tool } from '@agentlog/core';
import { scriptedModel, textResponse, toolCallResponse } from '@agentlog/core/testing';
import { writeJsonl } from '@agentlog/store';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

const main = fileURLToPath(new URL('./main.ts', import.meta.url));
const repo = fileURLToPath(new URL('../../../', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'agentlog-main-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A session long enough that its timeline overflows a pipe's buffer (64 KiB). */
async function longSession(steps: number): Promise<string> {
  const ping = tool({
    name: 'ping',
    description: 'Answers pong.',
    parameters: z.object({ n: z.number() }),
    execute: () => 'pong',
  });
  const store = createInMemoryEventStore();
  const calls = Array.from({ length: steps }, (_, n) =>
    toolCallResponse([{ name: 'ping', args: { n } }]),
  );
  const agent = await Agent.builder()
    .llm(scriptedModel([...calls, textResponse('done')]))
    .tools([ping])
    .limit(steps + 1)
    .store(store)
    .streamId('long')
    .build();
  await agent.query('ping away');
  const file = join(dir, 'long.jsonl');
  await writeJsonl(file, await store.readStream('long'));
  return file;
}

/** Runs the executable with its stdout read by someone who stops after the first chunk (`| head`). */
function runIntoClosedPipe(args: readonly string[]) {
  return new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--conditions=source', '--import', 'tsx', main, ...args],
      {
        cwd: repo,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.once('data', () => child.stdout.destroy());
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('the agentlog executable', () => {
  it('piped into a reader that stops early (| head), it ends quietly with its own exit code', async () => {
    const file = await longSession(1_500);
    expect(await runIntoClosedPipe(['inspect', file])).toEqual({ code: 0, stderr: '' });
  }, 60_000);
});
