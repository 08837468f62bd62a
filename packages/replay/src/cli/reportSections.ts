import type { AgentEvent, ChatMessage, JsonValue, ToolOutput } from '@agentlog/core';
import { stopDetail } from './describeEvent.js';
import { escapeHtml as esc } from './escapeHtml.js';
import type { LoadedStream } from './loadStream.js';

/** Pretty JSON of tool-call arguments (the text itself when it is not JSON), escaped in `<pre>`. */
function argsBlock(args: string | undefined): string {
  if (args === undefined) return '<pre>(no arguments)</pre>';
  let text = args;
  try {
    text = JSON.stringify(JSON.parse(args) as JsonValue, null, 2);
  } catch {
    // Not JSON: shown as the model sent it.
  }
  return `<pre>${esc(text)}</pre>`;
}

function outputText(output: ToolOutput): string {
  if (output.kind === 'text' || output.kind === 'fail') return output.text;
  return output.payload === undefined ? '' : JSON.stringify(output.payload, null, 2);
}

const at = (event: AgentEvent) =>
  `<span class="rev">#${event.metadata.revision}</span> <time>${esc(event.metadata.at)}</time>`;

/** The history the model saw: system, user, assistant (with its tool calls), tool and summary messages. */
export function messagesSection(history: readonly ChatMessage[]): string {
  const items = history.map((message) => {
    switch (message.role) {
      case 'system':
      case 'user':
      case 'summary':
        return `<li class="msg ${message.role}"><b>${message.role}</b><pre>${esc(message.text)}</pre></li>`;
      case 'assistant': {
        const calls = message.toolCalls
          .map((call) => `<div>→ ${esc(call.name)} (${esc(call.id)})${argsBlock(call.args)}</div>`)
          .join('');
        const text = message.text === undefined ? '' : `<pre>${esc(message.text)}</pre>`;
        return `<li class="msg assistant"><b>assistant</b>${text}${calls}</li>`;
      }
      case 'tool':
        return `<li class="msg tool"><b>tool ${esc(message.toolCall.name)} (${esc(message.toolCall.id)})</b> <span class="kind">${esc(message.output.kind)}</span><pre>${esc(outputText(message.output))}</pre></li>`;
    }
  });
  return `<section><h2>Messages</h2><ol class="messages">${items.join('\n')}</ol></section>`;
}

/** Every tool call: its arguments, status, and each outcome with its revision and time. */
export function toolCallsSection({ state, events }: LoadedStream): string {
  const rows = Object.values(state.toolCalls).map(({ toolCall, status, ...call }) => {
    const outcomes = events.flatMap((event) => {
      if (event.type === 'ToolCallCompleted' && event.data.toolCallId === toolCall.id)
        return [
          `<li>${at(event)} ${esc(event.data.output.kind)}<pre>${esc(outputText(event.data.output))}</pre></li>`,
        ];
      if (event.type === 'ToolCallFailed' && event.data.toolCallId === toolCall.id)
        return [
          `<li>${at(event)} failed (failure ${event.data.failureCount})<pre>${esc(event.data.error)}</pre></li>`,
        ];
      if (event.type === 'FeedbackRequested' && event.data.toolCall.id === toolCall.id)
        return [`<li>${at(event)} waiting for approval</li>`];
      return [];
    });
    const marks = [
      call.shadowed === true ? 'shadowed (HITL-5)' : '',
      call.ambiguous === true ? 'ambiguous (TOOL-7)' : '',
    ].filter((mark) => mark !== '');
    return `<tr><td>${esc(toolCall.id)}</td><td>${esc(toolCall.name)}</td><td>${esc(status)}${marks.map((mark) => `<br><span class="warn">${esc(mark)}</span>`).join('')}<br>${call.invocations} invocation(s)</td><td>${argsBlock(toolCall.args)}</td><td><ul>${outcomes.join('')}</ul></td></tr>`;
  });
  return `<section><h2>Tool calls</h2><table><thead><tr><th>id</th><th>tool</th><th>status</th><th>arguments</th><th>outputs</th></tr></thead><tbody>${rows.join('\n')}</tbody></table></section>`;
}

/** Every decision: when, on which call, approved or refused, by whom, the note and payload. */
export function approvalsSection({ state, events }: LoadedStream): string {
  const rows = events.flatMap((event) => {
    if (event.type !== 'FeedbackReceived') return [];
    const { toolCallId, feedback, by, note } = event.data;
    const name = state.toolCalls[toolCallId]?.toolCall.name ?? '';
    const payload =
      feedback.payload === undefined ? '' : `<pre>${esc(JSON.stringify(feedback.payload))}</pre>`;
    return [
      `<tr><td>${at(event)}</td><td>${esc(name)} (${esc(toolCallId)})</td><td class="${feedback.kind}">${esc(feedback.kind)}</td><td>${esc(by ?? '(not recorded)')}</td><td>${esc(note ?? '')}</td><td>${payload}</td></tr>`,
    ];
  });
  const body =
    rows.length === 0
      ? '<p>No decisions.</p>'
      : `<table><thead><tr><th>when</th><th>tool call</th><th>decision</th><th>by</th><th>note</th><th>payload</th></tr></thead><tbody>${rows.join('\n')}</tbody></table>`;
  return `<section><h2>Approvals</h2>${body}</section>`;
}

/** The warnings, and every stop with its reason and cause. */
export function warningsAndStopsSection(events: readonly AgentEvent[]): string {
  const warnings = events.flatMap((event) =>
    event.type === 'WarningRecorded'
      ? [
          `<li>${at(event)} <b>${esc(event.data.code)}</b>${event.data.toolCallId === undefined ? '' : ` (${esc(event.data.toolCallId)})`}: ${esc(event.data.message)}</li>`,
        ]
      : [],
  );
  const stops = events.flatMap((event) =>
    event.type === 'AgentStopped'
      ? [
          `<li>${at(event)} <b>${esc(event.data.reason.kind)}</b> (${esc(event.data.cause)}) ${esc(stopDetail(event.data.reason))}</li>`,
        ]
      : [],
  );
  const list = (items: string[], none: string) =>
    items.length === 0 ? `<p>${none}</p>` : `<ul>${items.join('\n')}</ul>`;
  return `<section><h2>Warnings</h2>${list(warnings, 'No warnings.')}</section>
<section><h2>Stops</h2>${list(stops, 'The agent never stopped.')}</section>`;
}
