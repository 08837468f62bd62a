import type { StopCause, StopReason } from '@agentlog/core';

/**
 * How the audit page names a stop, in words for people rather than the stored `kind (cause)`
 * (issue 20): the cause says most, the reason's kind where the cause is the same for several.
 */
export function stopLabel(reason: StopReason, cause: StopCause | undefined): string {
  switch (cause) {
    case 'toolRequestedStop':
      return 'finished: a tool handed over the result';
    case 'toolReportedFailure':
      return 'failed: a tool reported that the task cannot be done';
    case 'toolCallsOverLimit':
      return 'failed: a tool failed more often than the retry limit allows';
    case 'feedbackRequired':
      return 'paused: a call waits for a decision';
    case 'error':
      return 'failed with an error';
    case 'assistantAnswered':
      return 'done: the model answered';
    case 'emptyResponse':
      return 'done: the model answered nothing';
    case 'limitReached':
      return 'stopped: the limit of completions in one run was reached';
    case 'singleStep':
      return 'done: the one step it was asked for';
    case 'nothingNew':
      return 'done: nothing new to answer';
    case 'aborted':
      return "cancelled: the caller's signal aborted the run";
    case 'modelRefused':
      return 'stopped: the model refused to answer';
    case 'tokenLimit':
      return 'stopped: the model reached its token limit';
    case 'contentFiltered':
      return 'stopped: a content filter cut the answer';
    case 'stoppedByCaller':
      return 'stopped on request';
    case undefined:
      return reason.kind === 'feedbackRequired'
        ? 'paused: a call waits for a decision'
        : `stopped (${reason.kind})`;
  }
}
