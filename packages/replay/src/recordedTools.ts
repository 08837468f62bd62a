import { ToolError, ToolOutput, type AgentEvent, type JsonValue, type Tool } from '@agentlog/core';

/** What one recorded invocation of a tool call did. */
interface RecordedInvocation {
  consumedFeedback: boolean;
  outcome?:
    | { readonly kind: 'completed'; readonly output: ToolOutput }
    | { readonly kind: 'failed'; readonly error: string }
    | { readonly kind: 'feedbackRequested'; readonly payload?: JsonValue };
}

/** The recorded invocations of every tool call, in order, to serve them again. */
export type RecordedInvocations = Map<string, RecordedInvocation[]>;

/**
 * Collects what each invocation of each tool call did in a recorded stream: its outcome and
 * whether it consumed a decision (so approval wrappers replay their `FeedbackConsumed`).
 */
export function recordedInvocations(events: readonly AgentEvent[]): RecordedInvocations {
  const byCall: RecordedInvocations = new Map();
  const open = (id: string) =>
    byCall.get(id)?.find((invocation) => invocation.outcome === undefined);
  for (const event of events) {
    switch (event.type) {
      case 'ToolCallStarted': {
        const list = byCall.get(event.data.toolCall.id) ?? [];
        list.push({ consumedFeedback: false });
        byCall.set(event.data.toolCall.id, list);
        break;
      }
      case 'FeedbackConsumed': {
        const invocation = open(event.data.toolCallId);
        if (invocation) invocation.consumedFeedback = true;
        break;
      }
      case 'ToolCallCompleted': {
        const invocation = open(event.data.toolCallId);
        if (invocation) invocation.outcome = { kind: 'completed', output: event.data.output };
        break;
      }
      case 'ToolCallFailed': {
        const invocation = open(event.data.toolCallId);
        if (invocation) invocation.outcome = { kind: 'failed', error: event.data.error };
        break;
      }
      case 'FeedbackRequested': {
        const invocation = open(event.data.toolCall.id);
        const { payload } = event.data;
        if (invocation)
          invocation.outcome = {
            kind: 'feedbackRequested',
            ...(payload === undefined ? {} : { payload }),
          };
        break;
      }
      default:
        break;
    }
  }
  return byCall;
}

/**
 * A stand-in for `tool` that keeps its name and spec and serves the recorded outcomes instead of
 * running (replay with `tools: 'recorded'`, SPEC RPL-2). Outputs are served as recorded, after
 * the recorded run's hooks.
 */
export function recordedTool(tool: Tool, invocations: RecordedInvocations): Tool {
  const served = new Map<string, number>();
  return {
    name: tool.name,
    ...(tool.idempotent === undefined ? {} : { idempotent: tool.idempotent }),
    spec: () => tool.spec(),
    async invoke(context, toolCall) {
      const index = served.get(toolCall.id) ?? 0;
      served.set(toolCall.id, index + 1);
      const invocation = invocations.get(toolCall.id)?.[index];
      if (invocation?.outcome === undefined) {
        throw ToolError.executionFailed(
          `the recording has no outcome for invocation ${index + 1} of tool call ${toolCall.id} (${toolCall.name})`,
        );
      }
      if (invocation.consumedFeedback) await context.hasReceivedFeedback(toolCall);
      const { outcome } = invocation;
      switch (outcome.kind) {
        case 'completed':
          return outcome.output;
        case 'failed':
          throw ToolError.executionFailed(outcome.error);
        case 'feedbackRequested':
          return ToolOutput.feedbackRequired(outcome.payload);
      }
    },
  };
}
