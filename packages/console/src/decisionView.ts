import type { AgentState } from '@agentlog/core';
import { argumentLines, callsAwaitingDecision } from '@agentlog/core/read-models';
import { markup } from './report/html.js';
import { consolePage, csrfField, type PageFrame } from './consolePage.js';
import { callPath, runPath } from './consolePaths.js';

/** The decide page of a call that waits: its arguments in full, and the three decision forms. */
export function decisionView(
  frame: PageFrame,
  streamId: string,
  state: AgentState,
  toolCallId: string,
): string {
  const waiting = callsAwaitingDecision(state).find((call) => call.toolCall.id === toolCallId);
  const call = state.toolCalls[toolCallId];
  const head = markup`<h1>${call?.toolCall.name ?? '?'} <span class="rev">${toolCallId}</span></h1>
<p class="meta">in <a href="${runPath(streamId)}">${streamId}</a> at revision ${state.revision}</p>
<h2>Arguments</h2>
<pre id="args">${argumentLines(call?.toolCall.args).join('\n')}</pre>
${waiting?.feedbackPayload !== undefined && markup`<h2>Request</h2><pre>${JSON.stringify(waiting.feedbackPayload, null, 2)}</pre>`}
${waiting?.shadowed === true && markup`<p class="notice">Shadowed (HITL-5): a sibling call of the same answer got an output; approving will not re-run it. Have the model call it again.</p>`}
${waiting?.ambiguous === true && markup`<p class="notice">Ambiguous (TOOL-7): it was started before a crash and may have run.</p>`}`;
  if (waiting === undefined)
    return consolePage(
      frame,
      markup`${head}<p class="notice">This call does not wait for a decision (${call?.status ?? 'unknown'}).</p>`,
    );
  const hidden = markup`${csrfField(frame.csrf)}
<input type="hidden" name="revision" value="${state.revision}">`;
  const action = callPath(streamId, toolCallId);
  return consolePage(
    frame,
    markup`${head}
<h2>Decide</h2>
<form method="post" action="${action}" class="decision" id="approve">${hidden}
<input type="hidden" name="decision" value="approve">
<label for="approve-note">Note (for the audit only; the model never reads it)</label>
<input type="text" id="approve-note" name="note">
<p><input type="checkbox" id="approve-scope" name="scope" value="run">
<label for="approve-scope">Also approve every later call of ${call?.toolCall.name ?? '?'} for the rest of this run (HITL-15)</label></p>
<p><button type="submit">Approve</button></p>
</form>
<form method="post" action="${action}" class="decision" id="refuse">${hidden}
<input type="hidden" name="decision" value="refuse">
<label for="refuse-note">Note (for the audit only)</label>
<input type="text" id="refuse-note" name="note">
<label for="refuse-reason">Reason for the model (it reads "This tool call was refused: &lt;reason&gt;")</label>
<input type="text" id="refuse-reason" name="reason">
<p><button type="submit">Refuse</button></p>
</form>
<form method="post" action="${action}" class="decision" id="approve-payload">${hidden}
<input type="hidden" name="decision" value="approve">
<label for="payload">Approve with a JSON payload (HITL-9: handed to tools that read it)</label>
<textarea id="payload" name="payload" rows="5" required></textarea>
<label for="payload-note">Note (for the audit only)</label>
<input type="text" id="payload-note" name="note">
<p><button type="submit">Approve with payload</button></p>
</form>`,
  );
}
