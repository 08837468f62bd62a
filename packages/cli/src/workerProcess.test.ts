import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { recordDecision, requestRun, ToolFeedback, type StreamEvent } from '@agentlog/core';
import { createSqliteEventStore } from '@agentlog/store/sqlite';
import { afterAll, describe, expect, it } from 'vitest';

// `agentlog worker` as a real process on a SQLite store (SPEC WRK-2, WRK-5, WRK-7): what a
// person who approves in one terminal sees a worker in another do.

const root = resolve(import.meta.dirname, '../../..');
const bin = join(root, 'packages/cli/dist/main.js');
// Inside the repository, so the agents module resolves @agentlog/core and zod; git ignores it.
const cache = join(root, 'node_modules/.cache');
mkdirSync(cache, { recursive: true });
const dir = mkdtempSync(join(cache, 'agentlog-worker-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// A model that calls `deploy` once per user message, then answers in text: it needs no script,
// so a worker that builds the agent again after a decision gets the same answers.
const agentsModule = `
import { appendFileSync } from 'node:fs';
import { Agent, approvalRequired, tool } from '@agentlog/core';
import { z } from 'zod';
const model = {
  async complete(request) {
    const last = request.messages.at(-1);
    if (last?.role === 'tool') return { message: 'done', toolCalls: [] };
    const asked = request.messages.filter((message) => message.role === 'assistant').length;
    return { toolCalls: [{ id: 'deploy-' + asked, name: 'deploy', args: '{}' }] };
  },
};
const deploy = tool({
  name: 'deploy',
  description: 'deploys',
  parameters: z.object({}),
  execute: () => {
    appendFileSync(process.env.EFFECTS_FILE, 'deploy\\n');
    return 'deployed';
  },
});
export const agents = {
  plain: () => Agent.builder().llm(model).tools([deploy]),
  gated: () => Agent.builder().llm(model).tools([approvalRequired(deploy)]),
};
`;

/** Polls `check` until it holds, for a loaded machine's worth of time. */
async function eventually(what: string, check: () => Promise<boolean>): Promise<void> {
  const until = Date.now() + 60_000;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const lastStop = (events: StreamEvent[]) =>
  events.findLast((event) => event.type === 'AgentStopped')?.data as
    { reason: { kind: string; toolCall?: { id: string } } } | undefined;

describe('agentlog worker, a real process', () => {
  it(
    'WRK-2 WRK-5 WRK-7 on SQLite it runs a requested run, continues a run once its approval is recorded, and exits 0 after SIGTERM',
    { timeout: 180_000 },
    async (context) => {
      context.skip(!existsSync(bin), `${bin} is missing: run npm run build first`);
      const agents = join(dir, 'agents.mjs');
      writeFileSync(agents, agentsModule);
      const effects = join(dir, 'effects.txt');
      writeFileSync(effects, '');
      const db = join(dir, 'agentlog.db');
      const store = createSqliteEventStore({ path: db });
      try {
        await requestRun(store, {
          streamId: 'plain-1',
          agent: 'plain',
          input: 'ship it',
          by: 'ana',
        });
        await requestRun(store, {
          streamId: 'gated-1',
          agent: 'gated',
          input: 'ship it',
          by: 'ana',
        });
        const worker = spawn(
          process.execPath,
          [bin, 'worker', '--store', db, '--agents', agents, '--id', 'w1'],
          { env: { ...process.env, EFFECTS_FILE: effects }, stdio: ['ignore', 'pipe', 'pipe'] },
        );
        let output = '';
        worker.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
        worker.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
        const exited = once(worker, 'exit');
        try {
          // The requested run: taken, run to its end, by this worker on this host (WRK-7).
          await eventually('plain-1 to finish', async () =>
            (await store.readStream('plain-1')).some((event) => event.type === 'AgentStopped'),
          );
          const plain = await store.readStream('plain-1');
          expect(plain.find((event) => event.type === 'RunStarted')?.data).toMatchObject({
            input: 'ship it',
            worker: { id: 'w1', host: hostname() },
          });
          expect(lastStop(plain)?.reason.kind).toBe('noNewMessages');
          // The gated run stops for a person; the worker leaves it alone until the decision.
          await eventually('gated-1 to wait for a decision', async () => {
            const stop = lastStop(await store.readStream('gated-1'));
            return stop?.reason.kind === 'feedbackRequired';
          });
          expect(readFileSync(effects, 'utf8')).toBe('deploy\n');
          const waiting = lastStop(await store.readStream('gated-1'));
          const callId = waiting?.reason.toolCall?.id ?? '';
          await recordDecision(store, 'gated-1', callId, ToolFeedback.approved(), { by: 'bo' });
          // Approving is enough: the worker continues the run (WRK-2).
          await eventually('gated-1 to finish after the approval', async () => {
            const stop = lastStop(await store.readStream('gated-1'));
            return stop?.reason.kind === 'noNewMessages';
          });
          expect(readFileSync(effects, 'utf8')).toBe('deploy\ndeploy\n');
        } finally {
          worker.kill('SIGTERM');
        }
        // Graceful shutdown (WRK-5): it exits with 0 and leaves the workers' list.
        const [code] = (await exited) as [number | null, NodeJS.Signals | null];
        expect(code, output).toBe(0);
        expect(await store.work?.listWorkers()).toEqual([]);
      } finally {
        store.close();
      }
    },
  );
});
