import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent, type EventStore } from '@agentlog/core';
import { createSqliteEventStore, type SqliteDurability } from '@agentlog/store';
import { pingModel } from './pingModel.js';
import { pingTool } from './pingTool.js';

/**
 * Where the agent keeps its events: the default in-memory store, or a SQLite file with a
 * durability setting (and the ping tool marked `idempotent: true` or not).
 */
export type PingStore =
  | { readonly kind: 'memory' }
  | {
      readonly kind: 'sqlite';
      readonly durability: SqliteDurability;
      readonly idempotentTool: boolean;
    };

/**
 * Runs the ping scenario on agentlog: `steps` `ping` calls, then a text answer that ends the run,
 * with a fresh model, tool and store (a new SQLite file). Times `build()` plus `query('go')`,
 * checks that exactly `steps` tool calls ran, returns seconds. `wrap` puts a wrapper around the
 * store (to count appends; the bench's timed runs never wrap).
 */
export async function agentlogPing(
  steps: number,
  storeKind: PingStore,
  wrap?: (store: EventStore) => EventStore,
): Promise<number> {
  const dir = storeKind.kind === 'sqlite' ? await mkdtemp(join(tmpdir(), 'agentlog-bench-')) : '';
  const sqlite =
    storeKind.kind === 'sqlite'
      ? createSqliteEventStore({ path: join(dir, 'bench.db'), durability: storeKind.durability })
      : undefined;
  try {
    const model = pingModel(steps);
    const ping = pingTool('ping', {
      idempotent: storeKind.kind === 'sqlite' && storeKind.idempotentTool,
    });
    const store = sqlite === undefined || wrap === undefined ? sqlite : wrap(sqlite);
    const start = performance.now();
    const builder = Agent.builder().llm(model).tools([ping.tool]);
    if (store !== undefined) builder.store(store);
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
