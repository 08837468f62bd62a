// The end of the audit page: the conversation, the warnings and the stops.
import { stopLabel } from './stopLabel.js';
import type { AgentEvent, ChatMessage } from '@agentlog/core';
import { at, callRef } from './marks.js';
import { markup, type SafeHtml } from './html.js';

export function conversationSection(history: readonly ChatMessage[]): SafeHtml {
  const items = history.map((message) => {
    switch (message.role) {
      case 'system':
      case 'user':
      case 'summary':
        return markup`<li class="msg ${message.role}">
          <b>${message.role}</b>
          <pre class="text">${message.text}</pre>
        </li>`;
      case 'assistant':
        return markup`<li class="msg assistant">
          <b>assistant</b
          >${message.text !== undefined && markup`<pre class="text">${message.text}</pre>`}${message.refusal !== undefined && markup`<p class="warn">refusal: ${message.refusal}</p>`}${message.toolCalls.map((call) => markup`<div>→ ${callRef(call.name, call.id)}</div>`)}
        </li>`;
      case 'tool':
        return markup`<li class="msg tool">
          <b>tool</b> output of ${callRef(message.toolCall.name, message.toolCall.id)}
          <span class="meta">(${message.output.kind}; under Tool calls)</span>
        </li>`;
    }
  });
  return markup`<section id="conversation">
    <h2>Conversation</h2>
    <ol class="messages">
      ${items}
    </ol>
  </section>`;
}

/** The warnings, and every stop with its reason and cause. */
export function warningsAndStopsSection(events: readonly AgentEvent[]): SafeHtml {
  const warnings = events.flatMap((event) =>
    event.type === 'WarningRecorded'
      ? [
          markup`<li>
            ${at(event)}
            <b>${event.data.code}</b
            >${event.data.toolCallId !== undefined && ` (${event.data.toolCallId})`}:
            ${event.data.message}
          </li>`,
        ]
      : [],
  );
  const stops = events.flatMap((event) => {
    if (event.type !== 'AgentStopped') return [];
    const { reason, cause } = event.data;
    const target =
      'toolCall' in reason
        ? markup` · ${callRef(reason.toolCall.name, reason.toolCall.id)}`
        : markup``;
    return [markup`<li>${at(event)} <b>${stopLabel(reason, cause)}</b>${target}</li>`];
  });
  const list = (items: SafeHtml[], none: string) =>
    items.length === 0
      ? markup`<p>${none}</p>`
      : markup`<ul>
          ${items}
        </ul>`;
  return markup`<section id="warnings">
      <h2>Warnings</h2>
      ${list(warnings, 'No warnings.')}
    </section>
    <section id="stops">
      <h2>Stops</h2>
      ${list(stops, 'The agent never stopped.')}
    </section>`;
}
