import {
  ToolError,
  type AgentEvent,
  type RawToolResult,
  type ToolResult,
  type ToolRunner,
} from '@agentlog/core';

/** One recorded invocation of a tool call: where it started, its own result, what it consumed. */
interface RecordedInvocation {
  readonly startedAt: number;
  raw?: RawToolResult;
  readonly consumed: string[];
}

/**
 * Serves every tool's own result from a recording (SPEC RPL-5): the raw result the stream keeps
 * next to what hooks made of it, and the decisions the invocation read. No tool runs; the
 * replayed agent's hooks run again on what is served. An invocation is found by its call id and
 * the revision of its batch's starts, so a resumed call gets the outcome of that resumption.
 */
export function recordedResults(events: readonly AgentEvent[]): ToolRunner {
  const byCall = new Map<string, RecordedInvocation[]>();
  const open = new Map<string, RecordedInvocation>();
  let consumed: string[] = [];
  for (const event of events) {
    switch (event.type) {
      case 'ToolCallStarted': {
        const invocation = { startedAt: event.metadata.revision, consumed: [] };
        const list = byCall.get(event.data.toolCall.id) ?? [];
        list.push(invocation);
        byCall.set(event.data.toolCall.id, list);
        open.set(event.data.toolCall.id, invocation);
        break;
      }
      // A call's outcome goes in right after the decisions its invocation read.
      case 'FeedbackConsumed':
        consumed.push(event.data.toolCallId);
        break;
      case 'ToolCallCompleted':
      case 'ToolCallFailed':
      case 'FeedbackRequested': {
        const id =
          event.type === 'FeedbackRequested' ? event.data.toolCall.id : event.data.toolCallId;
        const invocation = open.get(id);
        if (invocation !== undefined) {
          invocation.raw = ownResult(event);
          invocation.consumed.push(...consumed);
          open.delete(id);
        }
        consumed = [];
        break;
      }
      case 'SystemPromptAdded':
      case 'RunRequested':
      case 'RunStarted':
      case 'RunReleased':
      case 'UserMessageQueued':
      case 'UserMessageAdded':
      case 'SummaryAdded':
      case 'ModelResponded':
      case 'AssistantMessageAdded':
      case 'FeedbackReceived':
      case 'AgentStopped':
      case 'StopRequested':
      case 'WarningRecorded':
      case 'StreamForked':
        consumed = [];
        break;
    }
  }
  return async (toolCall, context, at) => {
    const invocation = byCall
      .get(toolCall.id)
      ?.findLast((recorded) => recorded.startedAt <= at.revision);
    if (invocation?.raw === undefined) {
      return {
        ok: false,
        error: ToolError.executionFailed(
          `the recording has no outcome for tool call ${toolCall.id} (${toolCall.name}) started by revision ${at.revision}`,
        ),
      };
    }
    for (const id of invocation.consumed) await context.hasReceivedFeedback({ id, name: '' });
    return served(invocation.raw);
  };
}

/** The tool's own result an outcome event records: its `raw`, or what the event implies. */
function ownResult(
  event: Extract<
    AgentEvent,
    { type: 'ToolCallCompleted' | 'ToolCallFailed' | 'FeedbackRequested' }
  >,
): RawToolResult {
  if (event.data.raw !== undefined) return event.data.raw;
  switch (event.type) {
    case 'ToolCallCompleted':
      return { ok: true, output: event.data.output };
    case 'ToolCallFailed':
      return { ok: false, error: event.data.error };
    case 'FeedbackRequested': {
      const { payload } = event.data;
      return {
        ok: true,
        output:
          payload === undefined
            ? { kind: 'feedbackRequired' }
            : { kind: 'feedbackRequired', payload },
      };
    }
  }
}

/** A recorded result as hooks see it; a recorded failure keeps its message (its code is not recorded). */
function served(raw: RawToolResult): ToolResult {
  return raw.ok ? raw : { ok: false, error: ToolError.executionFailed(raw.error) };
}
