import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, ToolFeedback, approvalRequired, isFeedbackRequired } from '@agentlog/core';
import { createSqliteEventStore } from '@agentlog/store';
import { approvalModel } from './approvalModel.js';
import { pingTool } from './pingTool.js';

/**
 * The persisted approval cycle on agentlog, `cycles` times on one SQLite stream. Each cycle: a new
 * Agent built from the store `query`s, the model asks for an approval-gated call and the run stops
 * with `feedbackRequired`; a second new Agent built from the store records the approval and
 * `run()`s: the tool runs and the model answers text. Returns the seconds of each cycle.
 */
export async function agentlogApproval(cycles: number): Promise<number[]> {
  const dir = await mkdtemp(join(tmpdir(), 'agentlog-bench-'));
  const store = createSqliteEventStore({ path: join(dir, 'approval.db') });
  try {
    const model = approvalModel();
    const gated = pingTool('approve_ping');
    const tools = [approvalRequired(gated.tool)];
    const streamId = 'approval-bench';
    const build = () =>
      Agent.builder().llm(model).tools(tools).store(store).streamId(streamId).build();
    const times: number[] = [];
    for (let cycle = 1; cycle <= cycles; cycle += 1) {
      const start = performance.now();
      const asking = await build();
      await asking.query('go');
      const reason = asking.stopReason();
      if (!isFeedbackRequired(reason))
        throw new Error(`cycle ${cycle}: expected feedbackRequired, got ${JSON.stringify(reason)}`);
      const deciding = await build();
      await deciding
        .context()
        .feedbackReceived(reason.toolCall, ToolFeedback.approved(), { by: 'bench' });
      await deciding.run();
      times.push((performance.now() - start) / 1_000);
      const last = deciding.history().at(-1);
      if (gated.invocations() !== cycle || last?.role !== 'assistant' || last.text !== 'done') {
        throw new Error(
          `cycle ${cycle}: the approved tool ran ${gated.invocations()} times; last message ${JSON.stringify(last)}`,
        );
      }
    }
    return times;
  } finally {
    store.close();
    await rm(dir, { recursive: true, force: true });
  }
}
