import {
  Agent,
  approvalRequired,
  createInMemoryEventStore,
  tool,
  ToolFeedback,
  type AgentBuilder,
  type AgentEvent,
  type StreamEvent,
} from '@agentlog/core';
import {
  counterIds,
  fixedClock,
  scriptedModel,
  textResponse,
  toolCallResponse,
} from '@agentlog/core/testing';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeJsonl } from '@agentlog/store';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { replayStream } from './replayStream.js';
import { runCliIn } from '../../cli/src/test/runCliIn.js';

const dir = mkdtempSync(join(tmpdir(), 'agentlog-approval-policies-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// HITL-13 HITL-15 RPL-2: a gate's verdicts and a decision's scope are recorded, so a replay sees
// them, and a changed approval policy is a divergence at the start that records its verdict.
// Scripted by hand.

const refund = tool({
  name: 'refund',
  description: 'Pays money back.',
  parameters: z.object({ amount: z.number() }),
  execute: ({ amount }) => `refunded ${amount}`,
});
const factory = (limit: number) => (): AgentBuilder =>
  Agent.builder().tools([
    approvalRequired(refund, { when: (args) => (args as { amount: number }).amount > limit }),
  ]);
const call = (id: string, amount: number) => ({ name: 'refund', args: { amount }, id });

/** A session: a spared refund, one that waits and is approved for the run, one it covers. */
async function record(): Promise<StreamEvent[]> {
  const store = createInMemoryEventStore();
  const agent = await factory(100)()
    .llm(
      scriptedModel([
        toolCallResponse([call('c1', 5)]),
        toolCallResponse([call('c2', 500)]),
        toolCallResponse([call('c3', 900)]),
        textResponse('done'),
      ]),
    )
    .store(store)
    .streamId('refunds')
    .clock(fixedClock())
    .ids(counterIds('rec'))
    .build();
  await agent.query('refund');
  await agent.context().feedbackReceived({ id: 'c2', name: 'refund' }, ToolFeedback.approved(), {
    by: 'ana',
    scope: 'run',
  });
  await agent.run();
  return store.readStream('refunds');
}

describe('replay of approval policies', () => {
  it('HITL-13 HITL-15 RPL-2 a session with a condition and an approval for the run replays; a changed condition diverges at the verdict', async () => {
    const recorded = await record();
    const verdicts = (recorded as readonly AgentEvent[]).flatMap((event) =>
      event.type === 'ToolCallStarted' ? [event.data.approval?.kind] : [],
    );
    expect(verdicts).toEqual(['notRequired', 'required', 'required', 'approvedForRun']);
    const same = await replayStream(recorded, { agent: factory(100) });
    expect(same.ok, same.ok ? '' : same.divergence.message).toBe(true);

    // The policy changed: a refund of 5 now needs a person. The replay reports the first start.
    const changed = await replayStream(recorded, { agent: factory(1) });
    expect(changed.ok).toBe(false);
    if (changed.ok) return;
    const first = recorded.findIndex((event) => event.type === 'ToolCallStarted');
    expect(changed.divergence.index).toBe(first);
    expect(changed.divergence.diff).toContain('notRequired');
  });
});

describe('screens of approval policies', () => {
  it('HITL-13 HITL-15 inspect and show print each start’s verdict and a decision’s scope', async () => {
    const file = join(dir, 'refunds.jsonl');
    await writeJsonl(file, await record());
    const inspect = await runCliIn(['inspect', file], { cwd: dir, env: { NO_COLOR: '1' } });
    expect(inspect.code, inspect.stderr).toBe(0);
    expect(inspect.stdout).toContain(
      '→ refund {"amount":5} — no approval needed: its condition said so',
    );
    expect(inspect.stdout).toContain(
      '→ refund {"amount":500} — needs approval: its condition said so',
    );
    expect(inspect.stdout).toMatch(
      /✓ approved for the rest of the run by ana at .* · refund \(c2\)/,
    );
    expect(inspect.stdout).toContain(
      '→ refund {"amount":900} — approved for the run by ana (decision on c2)',
    );
    const show = await runCliIn(['show', file, 'c3'], { cwd: dir, env: { NO_COLOR: '1' } });
    expect(show.code, show.stderr).toBe(0);
    expect(show.stdout).toContain('→ started — approved for the run by ana (decision on c2)');
    const decided = await runCliIn(['show', file, 'c2'], { cwd: dir, env: { NO_COLOR: '1' } });
    expect(decided.stdout).toContain('✓ approved for the rest of the run by ana');
  });
});
