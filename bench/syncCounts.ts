import type { EventStore, StreamEvent } from '@agentlog/core';
import type { SqliteDurability } from '@agentlog/store';
import { agentlogApproval } from './agentlogApproval.js';
import { agentlogPing } from './agentlogPing.js';

/** One append as a counting wrapper saw it: whether agentlog marked it durable, its event types. */
interface SeenAppend {
  readonly durable: boolean;
  readonly types: readonly string[];
}

/** A store that forwards to `inner` and logs every append into `seen`. */
function countingStore(inner: EventStore, seen: SeenAppend[]): EventStore {
  return {
    appendToStream: (streamId, events, options) => {
      seen.push({ durable: options.durable === true, types: events.map((event) => event.type) });
      return inner.appendToStream(streamId, events, options);
    },
    readStream: (streamId, options) => inner.readStream(streamId, options),
    subscribeToStream: (streamId, options) => inner.subscribeToStream(streamId, options),
    listStreams: () => inner.listStreams(),
  };
}

/** How many of `appends` a SQLite store with `durability` commits with `synchronous = FULL`. */
function synced(appends: readonly SeenAppend[], durability: SqliteDurability): number {
  if (durability === 'full') return appends.length;
  if (durability === 'process') return 0;
  return appends.filter((append) => append.durable).length;
}

/** Appends and synced commits (fsyncs) of one ping step. */
export interface StepSyncs {
  readonly appends: number;
  readonly synced: number;
}

/**
 * Counts the appends of one ping step and how many of them the store syncs, from the code path:
 * a counting wrapper around the SQLite store logs which appends agentlog marks `durable` (the
 * store syncs those under `'sideEffects'`, every one under `'full'`, none under `'process'`).
 * One step = a 4-step run minus a 3-step run. Not timed; each run has its own store.
 */
export async function pingStepSyncs(
  durability: SqliteDurability,
  idempotentTool: boolean,
): Promise<StepSyncs> {
  const run = async (steps: number) => {
    const seen: SeenAppend[] = [];
    await agentlogPing(steps, { kind: 'sqlite', durability, idempotentTool }, (store) =>
      countingStore(store, seen),
    );
    return seen;
  };
  const [three, four] = [await run(3), await run(4)];
  return {
    appends: four.length - three.length,
    synced: synced(four, durability) - synced(three, durability),
  };
}

/** What one approval cycle (the second of a stream) appends and syncs, and what it stored. */
export interface CycleSyncs {
  readonly appends: number;
  /** Appends agentlog marked durable. */
  readonly durable: number;
  /** Synced commits under each durability setting. */
  readonly synced: Readonly<Record<SqliteDurability, number>>;
  /** From the stream: the cycle's FeedbackReceived events. */
  readonly decisions: number;
  /** From the stream: the cycle's ToolCallStarted events of a tool that is not idempotent. */
  readonly sideEffectStarts: number;
  /** Of those, how many came before the decision (the call asked for, the gate asking a person). */
  readonly startsBeforeDecision: number;
}

/**
 * Counts the second approval cycle of a stream two ways: the appends agentlog marks durable, seen
 * by a counting wrapper around the SQLite store, and the events the cycle stored that ought to be
 * synced (person's decisions, starts of the approval tool, which is not idempotent), read back
 * from the stream. Two cycles minus one cycle for the first count; the cycle's events (from its
 * user message on) for the second.
 */
export async function approvalCycleSyncs(): Promise<CycleSyncs> {
  const run = async (cycles: number) => {
    const seen: SeenAppend[] = [];
    let events: StreamEvent[] = [];
    await agentlogApproval(cycles, {
      durability: 'sideEffects',
      wrap: (store) => countingStore(store, seen),
      inspect: async (store, streamId) => {
        events = await store.readStream(streamId);
      },
    });
    return { seen, events };
  };
  const one = await run(1);
  const two = await run(2);
  const cycle = two.seen.slice(one.seen.length);
  const userType = two.events.find((event) => event.type.startsWith('UserMessage'))?.type;
  const starts = two.events.flatMap((event, index) => (event.type === userType ? [index] : []));
  const second = two.events.slice(starts[1] ?? two.events.length);
  return {
    appends: cycle.length,
    durable: cycle.filter((append) => append.durable).length,
    synced: {
      full: synced(cycle, 'full'),
      sideEffects: synced(cycle, 'sideEffects'),
      process: synced(cycle, 'process'),
    },
    decisions: second.filter((event) => event.type === 'FeedbackReceived').length,
    // The bench's only tool, approve_ping, is not idempotent.
    sideEffectStarts: second.filter((event) => event.type === 'ToolCallStarted').length,
    startsBeforeDecision: second
      .slice(
        0,
        Math.max(
          0,
          second.findIndex((event) => event.type === 'FeedbackReceived'),
        ),
      )
      .filter((event) => event.type === 'ToolCallStarted').length,
  };
}
