import { approvalVerdictOf } from '../loop/invocationContext.js';
import { ToolOutput } from '../messages/toolOutput.js';
import { refusalText } from '../messages/toolFeedback.js';
import {
  runsOnlyWhenApproved,
  type ApprovalGate,
  type ApprovalOptions,
} from '../api/approvalGate.js';
import type { Tool } from '../api/tool.js';

export {
  approvalCondition,
  gateOptions,
  isApprovalGate,
  runsOnlyWhenApproved,
  type ApprovalCondition,
  type ApprovalOptions,
} from '../api/approvalGate.js';

/**
 * Wraps a tool so each call waits for a person's decision (SPEC HITL-1). It keeps the inner tool's
 * name, spec and idempotent flag; no decision yet gives `feedbackRequired()`, approval runs the
 * inner tool, refusal gives the text `This tool call was refused`, followed by the refusal's reason
 * when it has one (SPEC HITL-14). Feedback payloads are ignored.
 *
 * With `when`, only calls it says need approval wait; the others, and calls covered by an approval
 * for the run (SPEC HITL-15), run the inner tool at once: the verdict recorded with the call's
 * start says so (SPEC HITL-13).
 */
export function approvalRequired(inner: Tool, options: ApprovalOptions = {}): Tool {
  if (options.when !== undefined && typeof options.when !== 'function') {
    throw new TypeError(
      `approvalRequired(${inner.name}): when must be a function (args, context) => boolean, got ${typeof options.when}`,
    );
  }
  const gate: ApprovalGate = {
    [runsOnlyWhenApproved]: Object.freeze({ ...options }),
    name: inner.name,
    ...(inner.idempotent === undefined ? {} : { idempotent: inner.idempotent }),
    spec: () => inner.spec(),
    async invoke(context, toolCall) {
      const verdict = approvalVerdictOf(context, toolCall);
      if (verdict !== undefined && verdict.kind !== 'required') {
        return inner.invoke(context, toolCall);
      }
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
