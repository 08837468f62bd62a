import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from '@agentlog/core';
import { createSqliteEventStore } from '@agentlog/store';
import { pingModel } from './pingModel.js';
import { pingTool } from './pingTool.js';

/** Where the agent keeps its events: the default in-memory store or a SQLite file. */
export type PingStore = 'memory' | 'sqlite';

/**
 * Runs the ping scenario on agentlog: `steps` `ping` calls, then a text answer that ends the run.
 * Times `build()` plus `query('go')`, checks that exactly `steps` tool calls ran, returns seconds.
 */
export async function agentlogPing(steps: number, storeKind: PingStore): Promise<number> {
  const dir = storeKind === 'sqlite' ? await mkdtemp(join(tmpdir(), 'agentlog-bench-')) : '';
  const sqlite =
    storeKind === 'sqlite' ? createSqliteEventStore({ path: join(dir, 'bench.db') }) : undefined;
  try {
    const model = pingModel(steps);
    const ping = pingTool();
    const start = performance.now();
    const builder = Agent.builder().llm(model).tools([ping.tool]);
    if (sqlite !== undefined) builder.store(sqlite);
    const agent = await builder.build();
    await agent.query('go');
    const seconds = (performance.now() - start) / 1_000;
    checkPingRun(steps, ping.invocations(), agent.history().at(-1));
    return seconds;
  } finally {
    sqlite?.close();
    if (dir !== '') await rm(dir, { recursive: true, force: true });
  }
}

/** Fails loudly unless the run made `steps` tool calls and ended with the text "done". */
export function checkPingRun(steps: number, toolCalls: number, last: unknown): void {
  if (toolCalls !== steps)
    throw new Error(`expected ${steps} tool calls, the run made ${toolCalls}`);
  const text = (last as { role?: string; text?: string } | undefined)?.text;
  if (text !== 'done')
    throw new Error(`expected the final text "done", got ${JSON.stringify(last)}`);
}
