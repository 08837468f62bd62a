import { ToolOutput } from '../messages/toolOutput.js';
import { refusalText } from '../messages/toolFeedback.js';

import type { Tool } from '../api/tool.js';

/**
 * Marks a tool that runs its side effect only for a call that holds an approval: the start of
 * any other call of it need not survive a power loss (see `AppendOptions.durable`).
 */
export const runsOnlyWhenApproved = Symbol('agentlog.runsOnlyWhenApproved');

/** Whether `tool` is marked {@link runsOnlyWhenApproved}. */
export function isApprovalGate(tool: Tool): boolean {
  return (tool as { [runsOnlyWhenApproved]?: true })[runsOnlyWhenApproved] === true;
}

/**
 * Wraps a tool so each call waits for a person's decision (SPEC HITL-1). It keeps the inner tool's
 * name, spec and idempotent flag; no decision yet gives `feedbackRequired()`, approval runs the
 * inner tool, refusal gives the text `This tool call was refused`, followed by the refusal's reason
 * when it has one (SPEC HITL-14). Feedback payloads are ignored.
 */
export function approvalRequired(inner: Tool): Tool {
  const gate: Tool & { readonly [runsOnlyWhenApproved]: true } = {
    [runsOnlyWhenApproved]: true,
    name: inner.name,
    ...(inner.idempotent === undefined ? {} : { idempotent: inner.idempotent }),
    spec: () => inner.spec(),
    async invoke(context, toolCall) {
      // Reading the decision consumes it, so the next call of the same id asks again.
      const feedback = await context.hasReceivedFeedback(toolCall);
      if (feedback === undefined) return ToolOutput.feedbackRequired();
      // Anything but an explicit approval, even a malformed stored decision, must not run the tool.
      return feedback.kind === 'approved'
        ? inner.invoke(context, toolCall)
        : ToolOutput.text(refusalText(feedback));
    },
  };
  return gate;
}
