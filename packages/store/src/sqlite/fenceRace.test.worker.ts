// A separate OS process of the SQLite fence tests (sqliteFenceRace.test.ts): opens the store on the
// path it was given and, for each command the parent sends, waits until the moment it names (if
// any), appends or renews a lease as told, and reports how that went. Several such processes on
// one file are what a claim race between workers on one machine looks like to SQLite. Named
// `*.test.worker.ts`, not `*.test.ts`, so vitest does not collect it, while npm leaves it out of
// the package as it does the tests (package.json `files`: `!dist/**/*.test.*`).
import type { AppendOptions, NewStreamEvent } from '@agentlog/core';
import { createSqliteEventStore } from './createSqliteEventStore.js';

/** What the parent asks of the process: at `at` (ms since the epoch), or at once. */
export type FenceRequest = { readonly at?: number } & (
  | {
      readonly op: 'append';
      readonly streamId: string;
      readonly events: readonly NewStreamEvent[];
      readonly options: AppendOptions;
    }
  | {
      readonly op: 'renew';
      readonly streamId: string;
      readonly owner: string;
      readonly leaseMs: number;
      readonly fence?: number;
    }
);

/** A request, numbered so its outcome finds its way back. */
export type FenceCommand = FenceRequest & { readonly id: number };

/** How a command went: `value` the append's next expected revision or the renewal's verdict. */
export interface FenceOutcome {
  readonly id: number;
  readonly name: string;
  readonly ok: boolean;
  readonly value?: number | boolean;
  readonly code?: string | undefined;
  readonly message?: string | undefined;
}

const [path, name] = process.argv.slice(2) as [string, string];
const store = createSqliteEventStore({ path });

const perform = async (command: FenceCommand): Promise<number | boolean> => {
  const { at } = command;
  if (at !== undefined) {
    // Sleep to just before the moment, then spin: the processes start within microseconds.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now() - 20)));
    while (Date.now() < at);
  }
  if (command.op === 'renew') {
    const { streamId, owner, leaseMs, fence } = command;
    return store.work.renewLease(streamId, owner, leaseMs, fence);
  }
  const { streamId, events, options } = command;
  return (await store.appendToStream(streamId, events, options)).nextExpectedRevision;
};

process.on('message', (command: FenceCommand | 'close') => {
  if (command === 'close') {
    store.close();
    process.exit(0);
  }
  void perform(command).then(
    (value) => process.send?.({ id: command.id, name, ok: true, value } satisfies FenceOutcome),
    (error: { code?: string; message?: string }) =>
      process.send?.({
        id: command.id,
        name,
        ok: false,
        code: error.code,
        message: error.message,
      } satisfies FenceOutcome),
  );
});
process.send?.({ ready: true });
