import type { AgentEvent, AgentStopped, FeedbackReceived } from '../events/agentEvent.js';
import type { StopReason } from '../events/stopReason.js';
import type { CompletionResponse } from '../ports/chatCompletion.js';
import type { ToolCall } from '../messages/toolCall.js';
import type { ToolOutput } from '../messages/toolOutput.js';
import { approvalVerdictText, decisionScopeText } from './approvalVerdictText.js';
import { clockTime, compactJson, quoted, summarizeArgs } from './summarizeArgs.js';
import { visibleLine, visibleText } from './visibleText.js';

/**
 * How a renderer shows a piece of a timeline line: a terminal paints it, a page gives it a class.
 * `call` marks a tool call, `ok` a success, `fail` a failure or refusal, `wait` a wait for a person,
 * `stop` a stop, `dim` what is secondary, `bold` a run's start.
 */
export type TimelineStyle = 'plain' | 'dim' | 'bold' | 'call' | 'ok' | 'fail' | 'wait' | 'stop';

/** A piece of a timeline line: its text, already visible (SPEC REV-1), and how it is shown. */
export interface TimelineSegment {
  readonly text: string;
  readonly style: TimelineStyle;
}

/**
 * What {@link timelineRow} remembers between the events of one stream: tool calls by id, the calls
 * whose last decision is a refusal (with who refused), the last answer.
 */
export interface TimelineMemory {
  readonly calls: Map<string, ToolCall>;
  readonly refusals: Map<string, string | undefined>;
  lastResponse?: CompletionResponse;
}

/** A memory for the first event of a stream. */
export function timelineMemory(): TimelineMemory {
  return { calls: new Map(), refusals: new Map() };
}

/** How a timeline shows payloads. */
export interface TimelineOptions {
  /**
   * `false`: a line names a payload (a stop's result, a decision's or a request's payload)
   * without showing it, for a page that shows each payload once elsewhere. Default `true`.
   */
  readonly payloads?: boolean;
}

const seg = (text: string, style: TimelineStyle = 'plain'): TimelineSegment => ({ text, style });

/**
 * The timeline line of `event` (without its revision and time), as the CLI's `inspect`, the
 * console and the audit page show it; `undefined` for an event that adds nothing readable (a
 * queued user text that enters the history at once, an assistant message equal to the model's
 * answer). `next` is the following event. One place for what each event says (SPEC EVT-1).
 */
export function timelineRow(
  event: AgentEvent,
  next: AgentEvent | undefined,
  memory: TimelineMemory,
  options: TimelineOptions = {},
): TimelineSegment[] | undefined {
  const payloads = options.payloads !== false;
  const shown = (payload: unknown, prefix: string): string =>
    payload === undefined ? '' : payloads ? `${prefix}${compactJson(payload)}` : ' (payload above)';
  const callName = (id: string) => visibleLine(memory.calls.get(id)?.name ?? '(unknown tool)');
  switch (event.type) {
    case 'SystemPromptAdded':
      return [seg(`system: ${quoted(event.data.text)}`, 'dim')];
    case 'RunStarted': {
      const { mode, input, worker } = event.data;
      const start = seg(
        `▶ ${visibleLine(mode)}${input === undefined ? '()' : ` ${quoted(input)}`}`,
        'bold',
      );
      return worker === undefined
        ? [start]
        : [
            start,
            seg(
              ` — run started by worker ${visibleLine(worker.id)} on host ${visibleLine(worker.host)}`,
              'dim',
            ),
          ];
    }
    case 'RunRequested': {
      const { agent, input, by } = event.data;
      return [
        seg(
          `⇢ run requested for agent ${visibleLine(agent)}${by === undefined ? '' : ` by ${visibleLine(by)}`}${input === undefined ? '' : `: ${quoted(input)}`}`,
        ),
      ];
    }
    case 'RunReleased': {
      const { worker, reason } = event.data;
      return [
        seg(
          `⇠ released by worker ${visibleLine(worker.id)} on host ${visibleLine(worker.host)}${reason === undefined ? '' : `: ${visibleLine(reason)}`}`,
          'dim',
        ),
      ];
    }
    case 'UserMessageQueued':
      return next?.type === 'UserMessageAdded' && next.data.text === event.data.text
        ? undefined
        : [seg(`user (queued): ${quoted(event.data.text)}`)];
    case 'UserMessageAdded':
      return [seg(`user: ${quoted(event.data.text)}`)];
    case 'SummaryAdded':
      return [seg(`summary: ${quoted(event.data.text)}`)];
    case 'ModelResponded': {
      const { response } = event.data;
      memory.lastResponse = response;
      const answer = seg(`model: ${describeAnswer(response.message, response.toolCalls)}`);
      const usage = modelAndUsage(response);
      return usage === '' ? [answer] : [answer, seg(usage, 'dim')];
    }
    case 'AssistantMessageAdded': {
      const { text, toolCalls } = event.data.message;
      for (const call of toolCalls) memory.calls.set(call.id, call);
      const answer = memory.lastResponse;
      const same =
        answer !== undefined &&
        (answer.message ?? '') === (text ?? '') &&
        JSON.stringify(answer.toolCalls) === JSON.stringify(toolCalls);
      return same
        ? undefined
        : [seg(`assistant (after hooks): ${describeAnswer(text, toolCalls)}`)];
    }
    case 'ToolCallStarted': {
      const { toolCall, approval } = event.data;
      memory.calls.set(toolCall.id, toolCall);
      const args = summarizeArgs(toolCall.args);
      const verdict = approvalVerdictText(approval);
      return [
        seg('→', 'call'),
        seg(` ${visibleLine(toolCall.name)}${args === '' ? '' : ` ${args}`}`),
        ...(verdict === undefined ? [] : [seg(` — ${visibleLine(verdict)}`, 'dim')]),
      ];
    }
    case 'ToolCallCompleted': {
      const { toolCallId, output } = event.data;
      // A refused call did not run: its output is the refusal text, never a ✓ (HITL-8).
      if (output.kind === 'text' && memory.refusals.has(toolCallId)) {
        const by = memory.refusals.get(toolCallId);
        return [
          seg('✗', 'fail'),
          seg(
            ` ${callName(toolCallId)} refused${by === undefined ? '' : ` by ${visibleLine(by)}`}: ${outputText(output.text)}`,
          ),
        ];
      }
      return describeOutput(callName(toolCallId), output, payloads);
    }
    case 'ToolCallFailed': {
      const { toolCallId, error, failureCount } = event.data;
      return [
        seg('✗', 'fail'),
        seg(` ${callName(toolCallId)}: ${oneLineError(error)} `),
        seg(`(failure ${failureCount})`, 'dim'),
      ];
    }
    case 'FeedbackRequested': {
      const { toolCall, payload, ambiguous } = event.data;
      memory.calls.set(toolCall.id, toolCall);
      const extra = shown(payload, ' ');
      return [
        seg('⏸', 'wait'),
        seg(
          ` waiting for approval: ${visibleLine(toolCall.name)} (${visibleLine(toolCall.id)})${extra}`,
        ),
        ...(ambiguous === true ? [seg(' — ambiguous: started before a crash', 'dim')] : []),
      ];
    }
    case 'FeedbackReceived':
      if (event.data.feedback.kind === 'refused')
        memory.refusals.set(event.data.toolCallId, event.data.by);
      else memory.refusals.delete(event.data.toolCallId);
      return describeDecision(event, callName(event.data.toolCallId), shown);
    case 'FeedbackConsumed':
      return [
        seg(
          `· decision on ${callName(event.data.toolCallId)} (${visibleLine(event.data.toolCallId)}) read`,
          'dim',
        ),
      ];
    case 'AgentStopped':
      return describeStop(event, payloads);
    case 'WarningRecorded':
      return [seg('⚠', 'wait'), seg(` ${visibleLine(event.data.message)}`)];
    case 'StopRequested':
      return [
        seg('■', 'stop'),
        seg(
          ` stop requested${event.data.by === undefined ? '' : ` by ${visibleLine(event.data.by)}`}${event.data.hook === undefined ? '' : ` from the ${event.data.hook} hook`}: ${visibleLine(event.data.reason)}`,
        ),
      ];
    case 'StreamForked':
      return [
        seg(
          `⑂ forked from ${visibleLine(event.data.fromStream)} at revision ${event.data.atRevision}`,
        ),
      ];
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

function describeOutput(name: string, output: ToolOutput, payloads: boolean): TimelineSegment[] {
  const payload = (value: unknown) => (payloads ? compactJson(value ?? null) : '(payload above)');
  switch (output.kind) {
    case 'text':
      return [seg('✓', 'ok'), seg(` ${name}: ${outputText(output.text)}`)];
    case 'fail':
      return [seg('✗', 'fail'), seg(` ${name}: ${outputText(output.text)}`)];
    case 'stop':
      return [seg('■', 'stop'), seg(` ${name}: stop ${payload(output.payload)}`)];
    case 'agentFailed':
      return [seg('■', 'stop'), seg(` ${name}: agent failed ${payload(output.payload)}`)];
    case 'feedbackRequired':
      return [seg('⏸', 'wait'), seg(` ${name}: waiting for approval`)];
  }
}

/** A tool's text output on one line, without quotes, cut a little longer than other texts. */
function outputText(text: string): string {
  return quoted(text, 80).slice(1, -1);
}

function describeDecision(
  event: FeedbackReceived,
  name: string,
  shown: (payload: unknown, prefix: string) => string,
): TimelineSegment[] {
  const { toolCallId, feedback, by, note, scope } = event.data;
  const mark = feedback.kind === 'approved' ? seg('✓', 'ok') : seg('✗', 'fail');
  const who = `${decisionScopeText(scope)}${by === undefined ? '' : ` by ${visibleLine(by)}`}`;
  const why = note === undefined ? '' : ` — ${quoted(note)}`;
  const payload = shown(feedback.payload, ' with ');
  return [
    mark,
    seg(
      ` ${visibleLine(feedback.kind)}${who} at ${clockTime(event.metadata.at)}${why} · ${name} (${visibleLine(toolCallId)})${payload}`,
    ),
  ];
}

/**
 * The stop line; a tool's typed result (`requestedByTool`) or an `agentFailed` payload follows
 * whole, as indented JSON lines, instead of being cut on the line.
 */
function describeStop(event: AgentStopped, payloads: boolean): TimelineSegment[] {
  const { reason, cause, hook, by: requester } = event.data;
  const result =
    (reason.kind === 'requestedByTool' || reason.kind === 'agentFailed') &&
    reason.payload !== undefined &&
    payloads
      ? reason.payload
      : undefined;
  const detail =
    result === undefined
      ? stopDetail(reason, payloads)
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
  return [
    seg('■', 'stop'),
    seg(
      ` stopped: ${visibleLine(reason.kind)} (${visibleLine(by)})${detail === '' ? '' : ` — ${detail}`}${data}`,
    ),
  ];
}
/** What a stop reason says beyond its kind: the call, payload, message or text. */
export function stopDetail(reason: StopReason, payloads = true): string {
  switch (reason.kind) {
    case 'requestedByTool':
    case 'feedbackRequired': {
      const payload =
        reason.payload === undefined
          ? ''
          : payloads
            ? ` ${compactJson(reason.payload)}`
            : ' (payload above)';
      return `${visibleLine(reason.toolCall.name)} (${visibleLine(reason.toolCall.id)})${payload}`;
    }
    case 'toolCallsOverLimit':
      return `${visibleLine(reason.toolCall.name)} (${visibleLine(reason.toolCall.id)})`;
    case 'agentFailed':
      return reason.payload === undefined
        ? ''
        : payloads
          ? compactJson(reason.payload)
          : '(payload above)';
    case 'error':
      return oneLineError(reason.message);
    case 'other':
      return quoted(reason.text);
    case 'noNewMessages':
      // Every kind is named: a new one fails `tsc` here instead of printing nothing.
      return '';
  }
}
