import type { AgentEvent, AgentState, ToolCallState, ToolOutput } from '@agentlog/core';
import {
  approvalVerdictText,
  argumentLines,
  dateTime,
  decisionScopeText,
  visibleLine,
  visibleText,
} from '@agentlog/core/read-models';
import type { CliCommand } from './cliCommand.js';
import { CliError } from './cliError.js';
import { loadStream } from './loadStream.js';
import { redactSecretText } from '@agentlog/replay';
import { maskForDisplay } from './maskForDisplay.js';
import { createPainter, type Painter } from './painter.js';
import { storeOption } from './storeOption.js';

/** `agentlog show`: one tool call's full arguments, status and decision history. */
export const showCommand: CliCommand = {
  name: 'show',
  summary: "print a tool call's full arguments, status and decision history",
  define(command) {
    command
      .description(
        'Prints one tool call in full, to review it before deciding:\n' +
          '  its tool, id and status (waiting for a decision, holding one, answered, …);\n' +
          '  its arguments: JSON pretty-printed, and every multi-line or Markdown string field as\n' +
          '  text, its lines as they are (not JSON-escaped);\n' +
          '  its history: each start, feedback request, decision (who, when, note, payload),\n' +
          '  decision read, and its outcome (the output or failure, in full).',
      )
      .argument('<stream>', 'a stream id of --store, or a .jsonl file')
      .argument('<toolCallId>', 'the id of the tool call')
      .addOption(storeOption())
      .addHelpText(
        'after',
        '\nAn unknown stream or call is one line on stderr, exit 2. Secrets show as [redacted].\n\n' +
          'Example:\n  agentlog show deploy-2025-06-01 call_1',
      );
  },
  async run(parsed, io) {
    const [target = '', toolCallId = ''] = parsed.positionals;
    // Keys and tokens in the stream are never printed (SPEC RPL-3).
    const loaded = maskForDisplay(await loadStream(target, parsed.string('store'), io));
    const call = loaded.state.toolCalls[toolCallId];
    if (call === undefined)
      throw new CliError(
        `stream ${visibleLine(loaded.streamId)} has no tool call ${visibleLine(toolCallId)}`,
      );
    const paint = createPainter(io);
    const lines = [
      `${paint.bold(`${visibleLine(call.toolCall.name)} (${visibleLine(toolCallId)})`)} ${paint.dim(`in ${visibleLine(loaded.streamId)} (${visibleLine(loaded.source)})`)}`,
      `status: ${callStatus(call, loaded.state)}`,
      '',
      'arguments:',
      ...argumentLines(call.toolCall.args).map((line) => indent(line)),
      '',
      'history:',
      ...historyLines(loaded.events, toolCallId, paint).map((line) => indent(line)),
    ];
    for (const line of lines) io.stdout(`${redactSecretText(line)}\n`);
    return 0;
  },
};

function indent(line: string): string {
  return line === '' ? '' : `  ${line}`;
}

/** Where the call stands, in words a reviewer acts on. */
function callStatus(call: ToolCallState, state: AgentState): string {
  const decision = state.feedback[call.toolCall.id];
  const marks = [
    call.shadowed === true ? 'shadowed (HITL-5): approving it will not re-run it' : '',
    call.ambiguous === true ? 'ambiguous (TOOL-7): started before a crash, it may have run' : '',
  ].filter((mark) => mark !== '');
  const status = (() => {
    switch (call.status) {
      case 'waiting':
        return decision === undefined
          ? 'waiting for a decision'
          : `${decision.feedback.kind}${decision.by === undefined ? '' : ` by ${visibleLine(decision.by)}`}, waiting for a run to resume it`;
      case 'open':
        return 'not started yet';
      case 'started':
        return 'started, no output yet';
      case 'completed':
        return 'completed';
      case 'failed':
        return 'failed';
    }
  })();
  const invocations = `${call.invocations} invocation${call.invocations === 1 ? '' : 's'}`;
  return [`${status} (${invocations})`, ...marks].join('; ');
}

/** Every event about the call, with its revision and time: requests, decisions, outcome. */
function historyLines(events: readonly AgentEvent[], toolCallId: string, paint: Painter): string[] {
  const lines: string[] = [];
  const add = (event: AgentEvent, text: string, more: string[] = []) => {
    lines.push(
      `${paint.dim(`#${event.metadata.revision}`.padEnd(5))}${paint.dim(dateTime(event.metadata.at))}  ${text}`,
    );
    lines.push(...more.map((line) => `${' '.repeat(26)}${visibleText(line)}`));
  };
  for (const event of events) {
    switch (event.type) {
      case 'ToolCallStarted':
        if (event.data.toolCall.id === toolCallId) {
          const verdict = approvalVerdictText(event.data.approval);
          add(
            event,
            `${paint.cyan('→')} started${verdict === undefined ? '' : ` — ${visibleLine(verdict)}`}`,
          );
        }
        break;
      case 'FeedbackRequested':
        if (event.data.toolCall.id === toolCallId)
          add(
            event,
            `${paint.yellow('⏸')} feedback requested${event.data.payload === undefined ? '' : ` with ${visibleText(JSON.stringify(event.data.payload))}`}${event.data.ambiguous === true ? ' (ambiguous: started before a crash)' : ''}`,
          );
        break;
      case 'FeedbackReceived': {
        if (event.data.toolCallId !== toolCallId) break;
        const { feedback, by, note, scope } = event.data;
        const mark = feedback.kind === 'approved' ? paint.green('✓') : paint.red('✗');
        add(
          event,
          `${mark} ${feedback.kind}${decisionScopeText(scope)} by ${visibleLine(by ?? '(nobody recorded)')}${feedback.payload === undefined ? '' : ` with ${visibleText(JSON.stringify(feedback.payload))}`}`,
          note === undefined
            ? []
            : note.split('\n').map((line, index) => `${index === 0 ? 'note: ' : '      '}${line}`),
        );
        break;
      }
      case 'FeedbackConsumed':
        if (event.data.toolCallId === toolCallId)
          add(event, paint.dim('· decision read by the run'));
        break;
      case 'ToolCallCompleted':
        if (event.data.toolCallId === toolCallId) add(event, ...outcome(event.data.output, paint));
        break;
      case 'ToolCallFailed':
        if (event.data.toolCallId === toolCallId) {
          const [first = '', ...more] = event.data.error.split('\n');
          add(
            event,
            `${paint.red('✗')} failed (failure ${event.data.failureCount}): ${visibleText(first)}`,
            more,
          );
        }
        break;
      case 'WarningRecorded':
        if (event.data.toolCallId === toolCallId)
          add(event, `${paint.yellow('⚠')} ${visibleLine(event.data.message)}`);
        break;
      // Events about no single call; a new event type fails `tsc` below until it is placed.
      case 'SystemPromptAdded':
      case 'RunRequested':
      case 'RunStarted':
      case 'RunReleased':
      case 'UserMessageQueued':
      case 'UserMessageAdded':
      case 'SummaryAdded':
      case 'ModelResponded':
      case 'AssistantMessageAdded':
      case 'AgentStopped':
      case 'StopRequested':
      case 'StreamForked':
        break;
      default: {
        const unplaced: never = event;
        throw new Error(`an event type the call history does not place: ${String(unplaced)}`);
      }
    }
  }
  if (lines.length === 0) lines.push('(no event about this call yet)');
  return lines;
}

function outcome(output: ToolOutput, paint: Painter): [string, string[]] {
  switch (output.kind) {
    case 'text':
    case 'fail': {
      const [first = '', ...more] = output.text.split('\n');
      const mark = output.kind === 'text' ? paint.green('✓') : paint.red('✗');
      return [
        `${mark} output${output.kind === 'fail' ? ' (fail)' : ''}: ${visibleText(first)}`,
        more,
      ];
    }
    case 'stop':
    case 'agentFailed':
      // The agent's typed result: whole, as indented data (not one cut line).
      return [
        `${paint.magenta('■')} ${output.kind === 'stop' ? 'stop' : 'agent failed'}${output.payload === undefined ? '' : ' with:'}`,
        output.payload === undefined
          ? []
          : JSON.stringify(output.payload, null, 2)
              .split('\n')
              .map((line) => `  ${line}`),
      ];
    case 'feedbackRequired':
      return [`${paint.yellow('⏸')} asked for a decision`, []];
  }
}
