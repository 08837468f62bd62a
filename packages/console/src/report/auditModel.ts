import type {
  AgentEvent,
  CompletionUsage,
  FeedbackReceived,
  JsonValue,
  ToolCall,
  ToolOutput,
} from '@agentlog/core';
import type { FoldedStream } from '@agentlog/core/read-models';

/**
 * Where a tool call stands, as an auditor reads it: `refused` (a refusal applies; its output is
 * the refusal text), `approved` (it ran after an approval), `completed` (it ran, no decision was
 * needed), `failed`, `waiting` (for a decision), `ambiguous` (the loop asked because the call was
 * started but never answered before a crash), `started` (running or interrupted), `open`.
 */
export type AuditStatus =
  'refused' | 'approved' | 'completed' | 'failed' | 'waiting' | 'ambiguous' | 'started' | 'open';

/** One decision on a tool call (a `FeedbackReceived` event). */
export interface AuditDecision {
  readonly event: FeedbackReceived;
  readonly toolCall: ToolCall | undefined;
}

/** What a tool call produced: an output, or a failure. */
export type AuditOutcome =
  | { readonly kind: 'output'; readonly event: AgentEvent; readonly output: ToolOutput }
  | {
      readonly kind: 'failure';
      readonly event: AgentEvent;
      readonly error: string;
      readonly failureCount: number;
    };

/** One tool call with everything the page says about it. */
export interface AuditCall {
  readonly toolCall: ToolCall;
  readonly status: AuditStatus;
  /** Set when the decision was recorded but no invocation has read it yet. */
  readonly decisionPending: boolean;
  readonly invocations: number;
  readonly decisions: readonly AuditDecision[];
  readonly outcomes: readonly AuditOutcome[];
  /** The payload of its last feedback request. */
  readonly requestPayload?: JsonValue;
  readonly shadowed: boolean;
  /** An earlier call of the same tool that was refused: this call is its revision. */
  readonly revises?: AuditCall;
}

/** One model step: a `ModelResponded` event and the events up to the next one. */
export interface AuditStep {
  readonly index: number;
  readonly events: readonly AgentEvent[];
  readonly model?: string;
  readonly usage?: CompletionUsage;
  /** Milliseconds from this answer to the next one (or to the last event); undefined without times. */
  readonly durationMs?: number;
  /** The part of `durationMs` the agent was stopped (from a stop to the next event, e.g. a decision). */
  readonly stoppedMs?: number;
}

/** The stream read for the audit page. */
export interface AuditModel {
  readonly calls: readonly AuditCall[];
  /** The calls by id: a timeline line finds its call in O(1). */
  readonly callsById: ReadonlyMap<string, AuditCall>;
  readonly decisions: readonly AuditDecision[];
  /** The events before the first model answer. */
  readonly prelude: readonly AgentEvent[];
  readonly steps: readonly AuditStep[];
  readonly totals: {
    readonly steps: number;
    readonly usage?: CompletionUsage;
    readonly durationMs?: number;
    readonly stoppedMs?: number;
  };
}

const time = (event: AgentEvent | undefined): number | undefined => {
  const at = event === undefined ? Number.NaN : Date.parse(event.metadata.at);
  return Number.isNaN(at) ? undefined : at;
};

const between = (from: AgentEvent | undefined, to: AgentEvent | undefined) => {
  const start = time(from);
  const end = time(to);
  return start === undefined || end === undefined ? undefined : Math.max(0, end - start);
};

/** The time the agent spent stopped among `events[from..to)`: each stop to the event after it. */
function stoppedBetween(
  events: readonly AgentEvent[],
  from: number,
  to: number,
): number | undefined {
  let total = 0;
  for (let index = from; index < to; index++) {
    if (events[index]?.type !== 'AgentStopped' || index + 1 >= events.length) continue;
    const gap = between(events[index], events[index + 1]);
    if (gap === undefined) return undefined;
    total += gap;
  }
  return total;
}

/** Reads the calls, decisions and steps of a folded stream. */
export function auditModel({ events, state }: FoldedStream): AuditModel {
  // One pass over the events groups what each call needs: the model reads in O(events + calls),
  // not O(events × calls) (a page of 100,000 events stays linear).
  const order = new Set<string>();
  const seen = (call: ToolCall) => void order.add(call.id);
  const decisions: AuditDecision[] = [];
  const decisionsOf = new Map<string, AuditDecision[]>();
  const outcomesOf = new Map<string, AuditOutcome[]>();
  const push = <T>(map: Map<string, T[]>, id: string, item: T) => {
    const list = map.get(id);
    if (list === undefined) map.set(id, [item]);
    else list.push(item);
  };
  for (const event of events) {
    if (event.type === 'AssistantMessageAdded') event.data.message.toolCalls.forEach(seen);
    if (event.type === 'ToolCallStarted' || event.type === 'FeedbackRequested')
      seen(event.data.toolCall);
    if (event.type === 'FeedbackReceived') {
      const decision = { event, toolCall: state.toolCalls[event.data.toolCallId]?.toolCall };
      decisions.push(decision);
      push(decisionsOf, event.data.toolCallId, decision);
    }
    if (event.type === 'ToolCallCompleted')
      push(outcomesOf, event.data.toolCallId, {
        kind: 'output',
        event,
        output: event.data.output,
      } satisfies AuditOutcome);
    if (event.type === 'ToolCallFailed')
      push(outcomesOf, event.data.toolCallId, {
        kind: 'failure',
        event,
        error: event.data.error,
        failureCount: event.data.failureCount,
      } satisfies AuditOutcome);
  }
  for (const id of Object.keys(state.toolCalls)) order.add(id);

  const calls: AuditCall[] = [];
  const callsById = new Map<string, AuditCall>();
  // The latest refused call of each tool name: a later call of that tool is its revision.
  const lastRefused = new Map<string, AuditCall>();
  for (const id of order) {
    const record = state.toolCalls[id];
    if (record === undefined) continue;
    const own = decisionsOf.get(id) ?? [];
    const outcomes = outcomesOf.get(id) ?? [];
    const last = own.at(-1)?.event.data.feedback.kind;
    const decisionPending = state.feedback[id] !== undefined;
    const status: AuditStatus =
      record.status === 'failed'
        ? 'failed'
        : last === 'refused'
          ? 'refused'
          : last === 'approved' && (record.status === 'completed' || decisionPending)
            ? 'approved'
            : record.status === 'completed'
              ? 'completed'
              : record.status === 'waiting'
                ? record.ambiguous === true
                  ? 'ambiguous'
                  : 'waiting'
                : record.status;
    const revises = lastRefused.get(record.toolCall.name);
    const call: AuditCall = {
      toolCall: record.toolCall,
      status,
      decisionPending,
      invocations: record.invocations,
      decisions: own,
      outcomes,
      ...(record.feedbackPayload === undefined ? {} : { requestPayload: record.feedbackPayload }),
      shadowed: record.shadowed === true,
      ...(revises === undefined ? {} : { revises }),
    };
    calls.push(call);
    callsById.set(id, call);
    if (status === 'refused') lastRefused.set(record.toolCall.name, call);
  }

  const starts = events.flatMap((event, index) => (event.type === 'ModelResponded' ? [index] : []));
  const steps: AuditStep[] = starts.map((start, index) => {
    const end = starts[index + 1] ?? events.length;
    const first = events[start];
    const response = first?.type === 'ModelResponded' ? first.data.response : undefined;
    const durationMs = between(
      first,
      starts[index + 1] === undefined ? events.at(-1) : events[end],
    );
    const stoppedMs = stoppedBetween(events, start, end);
    return {
      index: index + 1,
      events: events.slice(start, end),
      ...(stoppedMs === undefined || stoppedMs === 0 ? {} : { stoppedMs }),
      ...(response?.model === undefined ? {} : { model: response.model }),
      ...(response?.usage === undefined ? {} : { usage: response.usage }),
      ...(durationMs === undefined ? {} : { durationMs }),
    };
  });
  const usages = steps.flatMap((step) => (step.usage === undefined ? [] : [step.usage]));
  const usage =
    usages.length === 0
      ? undefined
      : usages.reduce((sum, next) => ({
          promptTokens: sum.promptTokens + next.promptTokens,
          completionTokens: sum.completionTokens + next.completionTokens,
          totalTokens: sum.totalTokens + next.totalTokens,
        }));
  const durationMs = between(events[0], events.at(-1));
  const stoppedMs = stoppedBetween(events, 0, events.length);
  return {
    calls,
    callsById,
    decisions,
    prelude: events.slice(0, starts[0] ?? events.length),
    steps,
    totals: {
      steps: steps.length,
      ...(usage === undefined ? {} : { usage }),
      ...(durationMs === undefined ? {} : { durationMs }),
      ...(stoppedMs === undefined || stoppedMs === 0 ? {} : { stoppedMs }),
    },
  };
}
