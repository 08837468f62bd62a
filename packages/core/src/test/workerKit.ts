import { z } from 'zod';
import { Agent } from '../agent/agent.js';
import type { AgentBuilder } from '../agent/agentBuilder.js';
import type { Tool } from '../api/tool.js';
import type { ChatCompletion, CompletionResponse } from '../ports/chatCompletion.js';
import type { EventStore } from '../ports/eventStore.js';
import type { WorkIndex } from '../ports/workIndex.js';
import { createInMemoryEventStore } from '../store/inMemoryEventStore.js';
import { counterIds } from '../testing/fixedClock.js';
import { tool } from '../tools/createTool.js';
import { createWorker, type WorkerOptions } from '../worker/createWorker.js';

/** A clock the test moves by hand. */
export interface ManualClock {
  (): Date;
  advance(ms: number): void;
}

/** A clock that reads `start` until moved. */
export function manualClock(start = '2026-01-01T00:00:00.000Z'): ManualClock {
  let now = Date.parse(start);
  const clock = (() => new Date(now)) as ManualClock;
  clock.advance = (ms) => void (now += ms);
  return clock;
}

/** An in-memory store on a manual clock, counting the index's `findWork` calls (polls). */
export function workStore(): {
  readonly store: EventStore;
  readonly work: WorkIndex;
  readonly clock: ManualClock;
  readonly polls: () => number;
  /** While paused, every lease renewal fails as if the network stalled. */
  readonly pauseRenewals: (paused: boolean) => void;
} {
  const clock = manualClock();
  const inner = createInMemoryEventStore({ clock });
  const work = inner.work as WorkIndex;
  let polls = 0;
  let paused = false;
  const counted: WorkIndex = {
    now: () => work.now(),
    findWork: (options) => {
      polls += 1;
      return work.findWork(options);
    },
    renewLease: (...args) =>
      paused ? Promise.reject(new Error('the network stalled')) : work.renewLease(...args),
    unservedWork: (options) => work.unservedWork(options),
    caps: () => work.caps(),
    setCaps: (caps) => work.setCaps(caps),
    heartbeat: (info) => work.heartbeat(info),
    retire: (id) => work.retire(id),
    listWorkers: (options) => work.listWorkers(options),
    workOf: (ids) => work.workOf(ids),
    waitForWork: (ms, signal) => work.waitForWork(ms, signal),
  };
  return {
    store: { ...inner, work: counted },
    work,
    clock,
    polls: () => polls,
    pauseRenewals: (pause) => void (paused = pause),
  };
}

/** Resolves once `condition` holds, checking every few milliseconds; fails after `timeoutMs`. */
export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 15_000,
): Promise<void> {
  const until = performance.now() + timeoutMs;
  while (!(await condition())) {
    if (performance.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** A gate a tool or a model waits on until the test opens it. */
export function gate(): { readonly opened: Promise<void>; readonly open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/** A model that answers each request with the next answer, or hangs (until aborted) past them. */
export function answers(list: readonly CompletionResponse[]): ChatCompletion & {
  readonly calls: () => number;
} {
  let calls = 0;
  return {
    calls: () => calls,
    complete: (_request, options) => {
      const answer = list[calls];
      calls += 1;
      if (answer !== undefined) return Promise.resolve(answer);
      return new Promise((_resolve, reject) => {
        const signal = options.signal;
        if (signal === undefined) return;
        if (signal.aborted) reject(signal.reason as Error);
        signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true });
      });
    },
  };
}

/** A tool that waits for `until` on its first invocation only. */
export function waitingTool(
  until: Promise<void>,
  options: { readonly idempotent?: boolean } = {},
): Tool & { readonly invocations: () => number; readonly abortedWith: () => unknown } {
  let invocations = 0;
  let abortedWith: unknown;
  const made = tool({
    name: 'work',
    description: 'works until the test lets it finish',
    parameters: z.object({}),
    ...(options.idempotent === undefined ? {} : { idempotent: options.idempotent }),
    execute: async (_args, context) => {
      invocations += 1;
      const { signal } = context;
      signal?.addEventListener(
        'abort',
        () => {
          abortedWith = signal.reason as unknown;
        },
        { once: true },
      );
      if (invocations === 1) await until;
      return 'worked';
    },
  });
  return Object.assign(made, { invocations: () => invocations, abortedWith: () => abortedWith });
}

/** A builder for a worker's registry: this model and these tools, quiet, on `clock`. */
export function builderOf(
  model: ChatCompletion,
  tools: readonly Tool[] = [],
  configure: (builder: AgentBuilder) => AgentBuilder = (builder) => builder,
): (streamId: string) => AgentBuilder {
  return () =>
    configure(
      Agent.builder()
        .llm(model)
        .tools(tools)
        .ids(counterIds(`e${Math.random().toString(36).slice(2, 8)}`))
        .logger({ warn: () => undefined }),
    );
}

/** Starts a worker named `id` on host `host-<id>`; `stop()` aborts it and waits until it is done. */
export function startWorker(options: Omit<WorkerOptions, 'signal'>): {
  readonly done: Promise<void>;
  readonly stop: () => Promise<void>;
  readonly warnings: string[];
} {
  const controller = new AbortController();
  const warnings: string[] = [];
  const { done } = createWorker({
    pollMs: 20,
    host: `host-${options.id ?? 'w'}`,
    logger: { warn: (message) => warnings.push(message) },
    ...options,
    signal: controller.signal,
  });
  return {
    done,
    warnings,
    stop: async () => {
      controller.abort();
      await done;
    },
  };
}
