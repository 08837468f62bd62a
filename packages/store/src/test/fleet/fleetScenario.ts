// The fleet's chaos test (SPEC WRK-4, WRK-8, RES-5), as both the worker processes and the test
// process describe it: the one agent the fleet runs, its scripted model and its `charge` tool, and
// the lines each process writes to the logs the analyser reads (fleetAnalysis.ts).
//
// Every log line carries `at`, a reading of CLOCK_MONOTONIC (process.hrtime) in milliseconds: one
// clock for every process of the machine, whatever faketime does to a worker's time of day (the
// skewed workers run with FAKETIME_DONT_FAKE_MONOTONIC=1, so only their wall clock is off).
import { appendFileSync } from 'node:fs';
import {
  approvalRequired,
  type ChatCompletion,
  type CompletionRequest,
  type CompletionResponse,
  type EventStore,
  type Tool,
} from '@agentlog/core';
import { textResponse, toolCallResponse } from '@agentlog/core/testing';

/** The registered agent name every run is requested for. */
export const agentName = 'charger';

/** The id of the one tool call of each run (the model is deterministic, so every worker agrees). */
export const chargeCallId = 'charge-1';

/** Who approves every waiting call (HITL-10 `by`). */
export const reviewerName = 'chaos-reviewer';

/** CLOCK_MONOTONIC in milliseconds: comparable across the processes of one machine. */
export function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}

/** The query text of the run of `streamId`; the model reads the stream back from it. */
export function taskOf(streamId: string): string {
  return `charge the customer of ${streamId}`;
}

/** Every third stream's charge takes 1.5 leases: its worker must renew the lease while it runs. */
export function isSlowCharge(streamId: string): boolean {
  const number = Number(/(\d+)$/.exec(streamId)?.[1] ?? '0');
  return number % 3 === 0;
}

/** How long the charge of `streamId` takes, for a run lease of `leaseMs`. */
export function chargeMs(streamId: string, leaseMs: number): number {
  if (isSlowCharge(streamId)) return Math.round(leaseMs * 1.5);
  const number = Number(/(\d+)$/.exec(streamId)?.[1] ?? '0');
  return 50 + (number % 5) * 25;
}

/** One event an append returned as stored, and which process appended it. */
export interface AppendEntry {
  /** The appending process: a worker's pid, or the test process's. */
  readonly pid: number;
  /** The worker's slot (`w1` …), or `test` for the test process (requests and decisions). */
  readonly slot: string;
  readonly streamId: string;
  readonly revision: number;
  readonly eventId: string;
  readonly type: string;
  /** When the append was called, and when it returned. */
  readonly calledAt: number;
  readonly at: number;
}

/** The side effect of a charge: one line per charge the tool made. */
export interface EffectEntry {
  readonly streamId: string;
  readonly toolCallId: string;
  readonly pid: number;
  readonly at: number;
}

/** A charge began (its tool was invoked after the approval): the pause waits for a slow one. */
export interface PendingEntry {
  readonly streamId: string;
  readonly toolCallId: string;
  readonly pid: number;
  readonly slow: boolean;
  readonly at: number;
}

/** What a worker process reports on stderr, after {@link notePrefix}. */
export type WorkerNote =
  | { readonly kind: 'started'; readonly slot: string; readonly pid: number; readonly at: number }
  | {
      /** The worker's logger was called: a failed run, a lost lease, a claim that met a live run. */
      readonly kind: 'warn';
      readonly slot: string;
      readonly pid: number;
      readonly at: number;
      readonly message: string;
      readonly streamId?: string;
      readonly code?: string;
    }
  | {
      /** The charge saw its run aborted right before it would write, and charged nothing. */
      readonly kind: 'withheld';
      readonly slot: string;
      readonly pid: number;
      readonly at: number;
      readonly streamId: string;
      readonly reason: string;
    }
  | {
      /** `createWorker` rejected (the store could not be reached at its start): tried again. */
      readonly kind: 'workerFailed';
      readonly slot: string;
      readonly pid: number;
      readonly at: number;
      readonly message: string;
    };

/** The prefix of a note line on a worker's stderr; the rest of the line is its JSON. */
export const notePrefix = '[fleet-chaos] ';

/**
 * The model of the fleet's agent, scripted by hand (no network, no recording): its answer is a
 * function of the request alone, so a worker that resumes another's run gets the same answer.
 * The first completion of a stream asks for `charge` with the stream's id; once the history holds
 * the charge's output, it answers with plain text and the run ends.
 */
export const chargeModel: ChatCompletion = {
  complete(request: CompletionRequest): Promise<CompletionResponse> {
    const charged = request.messages.some(
      (message) => message.role === 'tool' && message.toolCall.id === chargeCallId,
    );
    const task = request.messages.find((message) => message.role === 'user');
    const streamId = /of (\S+)$/.exec(task?.text ?? '')?.[1] ?? '(unknown)';
    return Promise.resolve(
      charged
        ? textResponse(`The customer of ${streamId} is charged.`)
        : toolCallResponse([{ name: 'charge', args: { streamId }, id: chargeCallId }]),
    );
  },
};

/**
 * The `charge` tool: approval-gated and NOT idempotent (after a crash in the middle of it a person
 * is asked again, TOOL-7). Its side effect is one line in `effectsFile`, appended with O_APPEND and
 * never deduplicated. It writes a pending marker first, works for `chargeMs`, yields once to the
 * event loop and checks the run's signal right before it writes: a worker whose run was taken
 * from it (its signal aborted) charges nothing.
 */
export function chargeTool(options: {
  readonly effectsFile: string;
  readonly pendingFile: string;
  readonly leaseMs: number;
  readonly onWithheld: (streamId: string, reason: string) => void;
}): Tool {
  const { effectsFile, pendingFile, leaseMs, onWithheld } = options;
  const inner: Tool = {
    name: 'charge',
    idempotent: false,
    spec: () => ({
      name: 'charge',
      description: 'Charges the customer of a stream, once.',
      parameters: {
        type: 'object',
        properties: { streamId: { type: 'string' } },
        required: ['streamId'],
        additionalProperties: false,
      },
    }),
    async invoke(context, toolCall) {
      const { streamId } = JSON.parse(toolCall.args ?? '{}') as { streamId: string };
      const pending: PendingEntry = {
        streamId,
        toolCallId: toolCall.id,
        pid: process.pid,
        slow: isSlowCharge(streamId),
        at: monotonicMs(),
      };
      appendFileSync(pendingFile, `${JSON.stringify(pending)}\n`);
      await new Promise((resolve) => setTimeout(resolve, chargeMs(streamId, leaseMs)));
      await new Promise((resolve) => setImmediate(resolve));
      if (context.signal?.aborted === true) {
        const reason = describe(context.signal.reason);
        onWithheld(streamId, reason);
        throw new Error(`charge of ${streamId}: the run was aborted (${reason}); nothing charged`);
      }
      const effect: EffectEntry = {
        streamId,
        toolCallId: toolCall.id,
        pid: process.pid,
        at: monotonicMs(),
      };
      appendFileSync(effectsFile, `${JSON.stringify(effect)}\n`);
      return `charged ${streamId}`;
    },
  };
  return approvalRequired(inner);
}

function describe(reason: unknown): string {
  if (reason instanceof Error) return `${reason.name}: ${reason.message}`;
  return String(reason);
}

/**
 * `store` with every append logged to `appendsFile` (synchronously, right after the append
 * returned, before anything else happens): the analyser learns who appended each stored event and
 * when, and checks that none was lost.
 */
export function loggingStore<S extends EventStore>(store: S, appendsFile: string, slot: string): S {
  return {
    ...store,
    async appendToStream(streamId, events, options) {
      const calledAt = monotonicMs();
      const result = await store.appendToStream(streamId, events, options);
      const at = monotonicMs();
      const first = result.nextExpectedRevision - events.length + 1;
      const lines = events.map((event, index) => {
        const entry: AppendEntry = {
          pid: process.pid,
          slot,
          streamId,
          revision: first + index,
          eventId: event.metadata.eventId,
          type: event.type,
          calledAt,
          at,
        };
        return `${JSON.stringify(entry)}\n`;
      });
      appendFileSync(appendsFile, lines.join(''));
      return result;
    },
  };
}
