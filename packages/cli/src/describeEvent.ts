import type {
  AgentEvent,
  AgentStopped,
  CompletionResponse,
  FeedbackReceived,
  StopReason,
  ToolCall,
  ToolOutput,
} from '@agentlog/core';
import {
  approvalVerdictText,
  clockTime,
  compactJson,
  decisionScopeText,
  quoted,
  summarizeArgs,
  visibleLine,
  visibleText,
} from '@agentlog/core/read-models';
import type { Painter } from './painter.js';

/**
 * What {@link describeEvent} remembers between events: tool calls by id, the calls whose last
 * decision is a refusal (with who refused), the last answer.
 */
export interface TimelineMemory {
  readonly calls: Map<string, ToolCall>;
  readonly refusals: Map<string, string | undefined>;
  lastResponse?: CompletionResponse;
}

/**
 * One timeline line for `event` (without its revision), or `undefined` for an event that adds
 * nothing readable (a queued user text that enters the history at once, an assistant message
 * equal to the model's answer). `next` is the following event.
 */
export function describeEvent(
  event: AgentEvent,
  next: AgentEvent | undefined,
  memory: TimelineMemory,
  paint: Painter,
): string | undefined {
  const callName = (id: string) => visibleLine(memory.calls.get(id)?.name ?? '(unknown tool)');
  switch (event.type) {
    case 'SystemPromptAdded':
      return paint.dim(`system: ${quoted(event.data.text)}`);
    case 'RunStarted': {
      const { mode, input, worker } = event.data;
      const by =
        worker === undefined
          ? ''
          : paint.dim(
              ` — run started by worker ${visibleLine(worker.id)} on host ${visibleLine(worker.host)}`,
            );
      return `${paint.bold(`▶ ${visibleLine(mode)}${input === undefined ? '()' : ` ${quoted(input)}`}`)}${by}`;
    }
    case 'RunRequested': {
      const { agent, input, by } = event.data;
      return `⇢ run requested for agent ${visibleLine(agent)}${by === undefined ? '' : ` by ${visibleLine(by)}`}${input === undefined ? '' : `: ${quoted(input)}`}`;
    }
    case 'RunReleased': {
      const { worker, reason } = event.data;
      return paint.dim(
        `⇠ released by worker ${visibleLine(worker.id)} on host ${visibleLine(worker.host)}${reason === undefined ? '' : `: ${visibleLine(reason)}`}`,
      );
    }
    case 'UserMessageQueued':
      return next?.type === 'UserMessageAdded' && next.data.text === event.data.text
        ? undefined
        : `user (queued): ${quoted(event.data.text)}`;
    case 'UserMessageAdded':
      return `user: ${quoted(event.data.text)}`;
    case 'SummaryAdded':
      return `summary: ${quoted(event.data.text)}`;
    case 'ModelResponded':
      memory.lastResponse = event.data.response;
      return `model: ${describeAnswer(event.data.response.message, event.data.response.toolCalls)}${paint.dim(modelAndUsage(event.data.response))}`;
    case 'AssistantMessageAdded': {
      const { text, toolCalls } = event.data.message;
      for (const call of toolCalls) memory.calls.set(call.id, call);
      const answer = memory.lastResponse;
      const same =
        answer !== undefined &&
        (answer.message ?? '') === (text ?? '') &&
        JSON.stringify(answer.toolCalls) === JSON.stringify(toolCalls);
      return same ? undefined : `assistant (after hooks): ${describeAnswer(text, toolCalls)}`;
    }
    case 'ToolCallStarted': {
      const { toolCall, approval } = event.data;
      memory.calls.set(toolCall.id, toolCall);
      const args = summarizeArgs(toolCall.args);
      const verdict = approvalVerdictText(approval);
      return `${paint.cyan('→')} ${visibleLine(toolCall.name)}${args === '' ? '' : ` ${args}`}${verdict === undefined ? '' : paint.dim(` — ${visibleLine(verdict)}`)}`;
    }
    case 'ToolCallCompleted': {
      const { toolCallId, output } = event.data;
      // A refused call did not run: its output is the refusal text, never a ✓ (HITL-8).
      if (output.kind === 'text' && memory.refusals.has(toolCallId)) {
        const by = memory.refusals.get(toolCallId);
        return `${paint.red('✗')} ${callName(toolCallId)} refused${by === undefined ? '' : ` by ${visibleLine(by)}`}: ${outputText(output.text)}`;
      }
      return describeOutput(callName(toolCallId), output, paint);
    }
    case 'ToolCallFailed': {
      const { toolCallId, error, failureCount } = event.data;
      return `${paint.red('✗')} ${callName(toolCallId)}: ${oneLineError(error)} ${paint.dim(`(failure ${failureCount})`)}`;
    }
    case 'FeedbackRequested': {
      const { toolCall, payload, ambiguous } = event.data;
      memory.calls.set(toolCall.id, toolCall);
      const extra = payload === undefined ? '' : ` ${compactJson(payload)}`;
      const flag = ambiguous === true ? paint.dim(' — ambiguous: started before a crash') : '';
      return `${paint.yellow('⏸')} waiting for approval: ${visibleLine(toolCall.name)} (${visibleLine(toolCall.id)})${extra}${flag}`;
    }
    case 'FeedbackReceived':
      if (event.data.feedback.kind === 'refused')
        memory.refusals.set(event.data.toolCallId, event.data.by);
      else memory.refusals.delete(event.data.toolCallId);
      return describeDecision(event, callName(event.data.toolCallId), paint);
    case 'FeedbackConsumed':
      return paint.dim(
        `· decision on ${callName(event.data.toolCallId)} (${visibleLine(event.data.toolCallId)}) read`,
      );
    case 'AgentStopped':
      return describeStop(event, paint);
    case 'WarningRecorded':
      return `${paint.yellow('⚠')} ${visibleLine(event.data.message)}`;
    case 'StopRequested':
      return `${paint.magenta('■')} stop requested${event.data.by === undefined ? '' : ` by ${visibleLine(event.data.by)}`}${event.data.hook === undefined ? '' : ` from the ${event.data.hook} hook`}: ${visibleLine(event.data.reason)}`;
    case 'StreamForked':
      return `⑂ forked from ${visibleLine(event.data.fromStream)} at revision ${event.data.atRevision}`;
  }
}

/** ` · gpt-4o · 1280 tokens (1200 prompt + 80 completion)`: who answered and what it cost. */
function modelAndUsage(response: CompletionResponse): string {
  const parts: string[] = [];
  if (response.model !== undefined && response.model !== '')
    parts.push(visibleLine(response.model));
  const { usage } = response;
  if (usage !== undefined)
    parts.push(
      `${usage.totalTokens} tokens (${usage.promptTokens} prompt + ${usage.completionTokens} completion)`,
    );
  return parts.map((part) => ` · ${part}`).join('');
}

function describeAnswer(text: string | undefined, toolCalls: readonly ToolCall[]): string {
  const parts: string[] = [];
  if (text !== undefined && text !== '') parts.push(quoted(text));
  if (toolCalls.length > 0)
    parts.push(
      `${toolCalls.length} tool call(s)${parts.length === 0 ? ` (${toolCalls.map((call) => visibleLine(call.name)).join(', ')})` : ''}`,
    );
  return parts.length === 0 ? '(empty answer)' : parts.join(' + ');
}

function oneLineError(error: string): string {
  return visibleLine(error.split('\n')[0] ?? '');
}

function describeOutput(name: string, output: ToolOutput, paint: Painter): string {
  switch (output.kind) {
    case 'text':
      return `${paint.green('✓')} ${name}: ${outputText(output.text)}`;
    case 'fail':
      return `${paint.red('✗')} ${name}: ${outputText(output.text)}`;
    case 'stop':
      return `${paint.magenta('■')} ${name}: stop ${compactJson(output.payload ?? null)}`;
    case 'agentFailed':
      return `${paint.magenta('■')} ${name}: agent failed ${compactJson(output.payload ?? null)}`;
    case 'feedbackRequired':
      return `${paint.yellow('⏸')} ${name}: waiting for approval`;
  }
}

/** A tool's text output on one line, without quotes, cut a little longer than other texts. */
function outputText(text: string): string {
  return quoted(text, 80).slice(1, -1);
}

function describeDecision(event: FeedbackReceived, name: string, paint: Painter): string {
  const { toolCallId, feedback, by, note, scope } = event.data;
  const mark = feedback.kind === 'approved' ? paint.green('✓') : paint.red('✗');
  const who = `${decisionScopeText(scope)}${by === undefined ? '' : ` by ${visibleLine(by)}`}`;
  const why = note === undefined ? '' : ` — ${quoted(note)}`;
  const payload = feedback.payload === undefined ? '' : ` with ${compactJson(feedback.payload)}`;
  return `${mark} ${visibleLine(feedback.kind)}${who} at ${clockTime(event.metadata.at)}${why} · ${name} (${visibleLine(toolCallId)})${payload}`;
}

/**
 * The stop line; a tool's typed result (`requestedByTool`) or an `agentFailed` payload follows
 * whole, as indented JSON lines, instead of being cut on the line.
 */
function describeStop(event: AgentStopped, paint: Painter): string {
  const { reason, cause, hook, by: requester } = event.data;
  const result =
    (reason.kind === 'requestedByTool' || reason.kind === 'agentFailed') &&
    reason.payload !== undefined
      ? reason.payload
      : undefined;
  const detail =
    result === undefined
      ? stopDetail(reason)
      : reason.kind === 'requestedByTool'
        ? `${visibleLine(reason.toolCall.name)} (${visibleLine(reason.toolCall.id)}), its result:`
        : 'its payload:';
  const by =
    hook !== undefined
      ? `${cause}, asked by a ${hook} hook`
      : requester !== undefined
        ? `${cause}, requested by ${requester}`
        : cause;
  const data =
    result === undefined
      ? ''
      : `\n${visibleText(JSON.stringify(result, null, 2))
          .split('\n')
          .map((line) => `  ${line}`)
          .join('\n')}`;
  return `${paint.magenta('■')} stopped: ${visibleLine(reason.kind)} (${visibleLine(by)})${detail === '' ? '' : ` — ${detail}`}${data}`;
}

/** What a stop reason says beyond its kind: the call, payload, message or text. */
export function stopDetail(reason: StopReason): string {
  switch (reason.kind) {
    case 'requestedByTool':
    case 'feedbackRequired': {
      const payload = reason.payload === undefined ? '' : ` ${compactJson(reason.payload)}`;
      return `${visibleLine(reason.toolCall.name)} (${visibleLine(reason.toolCall.id)})${payload}`;
    }
    case 'toolCallsOverLimit':
      return `${visibleLine(reason.toolCall.name)} (${visibleLine(reason.toolCall.id)})`;
    case 'agentFailed':
      return reason.payload === undefined ? '' : compactJson(reason.payload);
    case 'error':
      return oneLineError(reason.message);
    case 'other':
      return quoted(reason.text);
    case 'noNewMessages':
      // Every kind is named: a new one fails `tsc` here instead of printing nothing.
      return '';
  }
}
