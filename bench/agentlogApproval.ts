import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  Agent,
  ToolFeedback,
  approvalRequired,
  isFeedbackRequired,
  type EventStore,
} from '@agentlog/core';
import { createSqliteEventStore, type SqliteDurability } from '@agentlog/store';
import { approvalModel } from './approvalModel.js';
import { pingTool } from './pingTool.js';

/** Options of {@link agentlogApproval}. */
export interface ApprovalOptions {
  readonly durability: SqliteDurability;
  /** Puts a wrapper around the store (to count appends; the timed runs never wrap). */
  readonly wrap?: (store: EventStore) => EventStore;
  /** Called once the cycles are done, before the store is closed, with the stream they wrote. */
  readonly inspect?: (store: EventStore, streamId: string) => Promise<void>;
}

/** The approval scenario's stream. */
export const approvalStreamId = 'approval-bench';

/**
 * The persisted approval cycle on agentlog, `cycles` times on one SQLite stream. Each cycle: a new
 * Agent built from the store `query`s, the model asks for an approval-gated call and the run stops
 * with `feedbackRequired`; a second new Agent built from the store records the approval and
 * `run()`s: the tool (not idempotent) runs and the model answers text. Returns the seconds of
 * each cycle.
 */
export async function agentlogApproval(
  cycles: number,
  options: ApprovalOptions,
): Promise<number[]> {
  const dir = await mkdtemp(join(tmpdir(), 'agentlog-bench-'));
  const sqlite = createSqliteEventStore({
    path: join(dir, 'approval.db'),
    durability: options.durability,
  });
  const store = options.wrap === undefined ? sqlite : options.wrap(sqlite);
  try {
    const model = approvalModel();
    const gated = pingTool('approve_ping');
    const tools = [approvalRequired(gated.tool)];
    const streamId = approvalStreamId;
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
    await options.inspect?.(store, streamId);
    return times;
  } finally {
    sqlite.close();
    await rm(dir, { recursive: true, force: true });
  }
}
